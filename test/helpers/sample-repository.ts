// A small repository with every kind of entry the repository API shows: directories, files, an
// executable, a binary file, a rename, a submodule, two branches and both kinds of tag, with fixed
// authors and dates (in a +01:00 zone), pushed straight into a project's bare repository.
import fs from 'node:fs';
import path from 'node:path';
import type { GitClient } from './git.ts';

export interface SampleRepository {
  /** master: first, second (tip). feature: second + feature (tip). */
  first: string;
  second: string;
  feature: string;
  /** The blob of README.md on master. */
  readmeBlob: string;
  /** Its content on master. */
  readme: string;
  /** The commit the submodule entry points to. */
  submodule: string;
}

const AUTHOR = {
  GIT_AUTHOR_NAME: 'Ada Author',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Carl Committer',
  GIT_COMMITTER_EMAIL: 'carl@example.com',
};

function at(seconds: number) {
  const date = `${seconds} +0100`;
  return { ...AUTHOR, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
}

export async function buildSampleRepository(client: GitClient, repoPath: string): Promise<SampleRepository> {
  const dir = await client.workTree(`sample-${path.basename(repoPath)}-${Date.now()}`);
  const write = (name: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  };
  const rev = async (name: string) => (await client.ok(['rev-parse', name], dir)).trim();

  write('README.md', 'hello\n');
  write('docs/guide.md', 'guide\nline two\nline three\n');
  write('src/app.rb', 'puts 1\n');
  write('script.sh', 'echo hi\n');
  await client.ok(['add', '-A'], dir);
  await client.ok(['commit', '-q', '-m', 'First commit\n\nWith a body.'], dir, at(1450972274));
  const first = await rev('HEAD');

  write('README.md', 'hello\nworld\n');
  write('image.bin', Buffer.from([0, 1, 2, 3, 255, 0, 10]));
  await client.ok(['mv', 'docs/guide.md', 'docs/manual.md'], dir);
  fs.chmodSync(path.join(dir, 'script.sh'), 0o755);
  await client.ok(['add', '-A'], dir);
  // A submodule entry without a checkout (staged last: `add -A` would drop it).
  await client.ok(['update-index', '--add', '--cacheinfo', `160000,${first},vendor/lib`], dir);
  await client.ok(['commit', '-q', '-m', 'Second commit'], dir, at(1450972374));
  const second = await rev('HEAD');
  await client.ok(['tag', 'v1.0', first], dir);
  await client.ok(['tag', '-a', 'v2.0', '-m', 'Release 2', second], dir, at(1450972400));

  await client.ok(['checkout', '-q', '-b', 'feature'], dir);
  write('feature.txt', 'feature\n');
  await client.ok(['add', 'feature.txt'], dir);
  await client.ok(['commit', '-q', '-m', 'Feature commit'], dir, at(1450972474));
  const feature = await rev('HEAD');

  await client.ok(['push', '-q', repoPath, 'master', 'feature', 'v1.0', 'v2.0'], dir);
  return {
    first,
    second,
    feature,
    readmeBlob: await rev('master:README.md'),
    readme: 'hello\nworld\n',
    submodule: first,
  };
}
