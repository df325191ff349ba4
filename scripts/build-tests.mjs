// Compiles the test files (and through them src/) once per run of the suite, so each test process loads
// plain JavaScript instead of transforming ~430 TypeScript modules through the tsx loader: that load took
// ~3 s of CPU per test file under load, the bundle ~1 s. One ES module per test file, shared code split
// into chunks, packages left to node_modules, source maps linked (node --enable-source-maps maps stack
// lines back to the .ts files).
//
// The compiled files live in node_modules/.cache/labrador/test-build-<pid>/ (the run's process), beside
// the checkout's node_modules so packages resolve; a run removes its own at the end and those of runs whose
// process is gone at its start. import.meta.url, .dirname and .filename are replaced in every file of the
// checkout by its source file's values, so code that finds fixtures, src/ or package.json next to itself
// finds them as it does when run from source.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { processAlive } from './test-databases.mjs';

const BUILD_DIR = /^test-build-(\d+)$/;
/** A compiled test file's path: the checkout, the run's build folder, the source's path in the checkout. */
const BUILT_FILE = /^(.*)\/node_modules\/\.cache\/labrador\/test-build-\d+\/(.*)\.mjs$/;

/** The folder of the compiled tests of the run of process `pid`. */
function buildDir(root, pid) {
  return path.join(root, 'node_modules', '.cache', 'labrador', `test-build-${pid}`);
}

/** Removes the compiled tests of runs whose process is gone (a run killed outright leaves them). */
export function removeStaleTestBuilds(root) {
  const parent = path.dirname(buildDir(root, 0));
  if (!fs.existsSync(parent)) return;
  for (const name of fs.readdirSync(parent)) {
    const owner = Number(BUILD_DIR.exec(name)?.[1]);
    if (owner && !processAlive(owner)) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

export function removeTestBuild(root, pid) {
  fs.rmSync(buildDir(root, pid), { recursive: true, force: true });
}

/** The test file (.ts) that `file` was compiled from; any other path as it is. */
export function sourceOfBuilt(file) {
  const match = BUILT_FILE.exec(file);
  return match ? `${match[1]}/${match[2]}.ts` : file;
}

/** Each file's import.meta location as it is in the checkout, not in the build folder. */
function sourceLocations(root) {
  const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    name: 'source-locations',
    setup(context) {
      context.onLoad({ filter: new RegExp(`^${escaped}/(src|test|scripts)/.*\\.(ts|tsx|mjs)$`) }, (args) => {
        const source = fs.readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta')) return undefined;
        const values = {
          url: JSON.stringify(pathToFileURL(args.path).href),
          dirname: JSON.stringify(path.dirname(args.path)),
          filename: JSON.stringify(args.path),
        };
        const contents = source.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key) => values[key]);
        return {
          contents,
          loader: path.extname(args.path).slice(1) === 'mjs' ? 'js' : path.extname(args.path).slice(1),
        };
      });
    },
  };
}

/**
 * Compiles `files` (test files of the checkout at `root`) for the run of process `pid`; answers each test
 * file's compiled path by its source path, or null when the compiler reported errors (printed above).
 * The compiled path of a test file is `buildDir`/<its path in the checkout, .mjs for .ts> (BUILT_FILE).
 */
export async function buildTests(root, pid, files) {
  const outdir = buildDir(root, pid);
  fs.rmSync(outdir, { recursive: true, force: true });
  try {
    await build({
      entryPoints: files,
      outdir,
      outbase: root,
      outExtension: { '.js': '.mjs' },
      chunkNames: 'chunks/[name]-[hash]',
      bundle: true,
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'linked',
      plugins: [sourceLocations(root)],
      logLevel: 'error',
    });
  } catch {
    return null;
  }
  return new Map(
    files.map((file) => [file, path.join(outdir, path.relative(root, file)).replace(/\.ts$/, '.mjs')]),
  );
}
