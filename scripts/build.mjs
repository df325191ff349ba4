// The build, run once by `npm ci` / `npm install` (the prepare script) or `npm run build`: bundles the
// server (src/main.ts) into dist/main.mjs, the admin commands (src/admin.ts) into dist/admin.mjs and
// the runner (src/runner/main.ts) into dist/runner.mjs, each one plain ES module (loading ~150
// TypeScript modules through a loader took seconds). Starting never writes into the checkout. `--outdir <dir>` builds elsewhere (the process tests).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const flag = process.argv.indexOf('--outdir');
const outDir = path.resolve(flag >= 0 ? process.argv[flag + 1] : path.join(root, 'dist'));
const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;

// Built beside the target and swapped in by renames, so a running server never sees half a bundle.
const staging = `${outDir}.build-${process.pid}`;
fs.rmSync(staging, { recursive: true, force: true });
fs.mkdirSync(staging, { recursive: true });
await build({
  entryPoints: {
    main: path.join(root, 'src/main.ts'),
    admin: path.join(root, 'src/admin.ts'),
    runner: path.join(root, 'src/runner/main.ts'),
  },
  outdir: staging,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  define: { LABRADOR_VERSION: JSON.stringify(version) },
  logLevel: 'warning',
});
const previous = `${outDir}.old-${process.pid}`;
if (fs.existsSync(outDir)) fs.renameSync(outDir, previous);
fs.renameSync(staging, outDir);
fs.rmSync(previous, { recursive: true, force: true });
