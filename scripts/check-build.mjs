// Before `npm start`, `npm run admin` and `npm run runner`: the build must exist (npm ci makes it); a build older than src/
// gets a warning. Reads only: starting never writes into the checkout.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundles = ['dist/main.mjs', 'dist/admin.mjs', 'dist/runner.mjs'].map((name) => path.join(root, name));
const missing = bundles.find((bundle) => !fs.existsSync(bundle));
if (missing) {
  console.error(
    `labrador: ${path.relative(root, missing)} is missing: run npm ci (or npm run build) in the checkout first`,
  );
  process.exit(1);
}
function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}
if (newest(path.join(root, 'src')) > fs.statSync(bundles[0]).mtimeMs) {
  console.error(
    'labrador: warning: src/ changed after the last build; npm run build brings dist/ up to date',
  );
}
