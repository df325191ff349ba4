// CI: every installed package must run on every Node version our engines field accepts. npm only warns
// (EBADENGINE) when a dependency wants a newer Node than the one installing; this fails instead, and it
// checks against the lowest accepted version, not just the Node that happens to run CI.
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const accepted = manifest.engines.node;
const lowest = semver.minVersion(accepted).version;

const problems = [];
for (const [location, entry] of Object.entries(lock.packages)) {
  const wanted = entry.engines?.node;
  if (!location || !wanted || typeof wanted !== 'string') continue;
  // Development tools only need the Node that runs the checks; what ships must run on all of ours.
  const versions = entry.dev ? [process.versions.node] : [lowest, process.versions.node];
  for (const version of versions) {
    if (!semver.satisfies(version, wanted)) {
      problems.push(
        `${location.replace(/^node_modules\//, '')}@${entry.version} needs node ${wanted}, not ${version}`,
      );
      break;
    }
  }
}
if (problems.length > 0) {
  console.error(`engines: these packages do not run on every Node ${accepted}:`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(
  `engines: every package runs on Node ${accepted} (checked ${lowest} and ${process.versions.node})`,
);
