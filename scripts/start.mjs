// `npm start`: bundles src/ with esbuild (about 50 ms) and runs the bundle. Loading ~150 TypeScript
// modules through a loader hook took over a second; one plain ES module starts the server in a fraction.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist');
fs.mkdirSync(path.join(outDir, 'hooks'), { recursive: true });

const result = await build({
  entryPoints: [path.join(root, 'src/main.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  write: false,
  logLevel: 'warning',
});
// Written under a per-process name and renamed, so processes starting together never read half a file.
const bundle = path.join(outDir, `main.${process.pid}.mjs`);
fs.writeFileSync(bundle, result.outputFiles[0].contents);
// The pre-receive hook is a separate script that src/git/hooks.ts finds next to the running code.
fs.copyFileSync(path.join(root, 'src/git/hooks/pre-receive.mjs'), path.join(outDir, 'hooks/pre-receive.mjs'));
process.setSourceMapsEnabled(true);
try {
  await import(pathToFileURL(bundle).href);
} finally {
  fs.rmSync(bundle, { force: true });
}
