// A name too long for git or the file system (a megabyte, far past GitLab's 255-character ref columns
// and the kernel's 128 KiB limit on one argument) on every endpoint that hands a name to git. Writes
// answer 4xx with a JSON body and change nothing; reads answer what they answer for a name that does
// not exist.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  commitFile,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';

const HUGE = 'a'.repeat(1024 * 1024);
const ABSENT = 'no-such-name';

describe('names too long for git', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: TestProject;
  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'long-names-owner');
    project = await createProject(t, { owner, path: 'long-names' });
    await commitFile(project.repoPath, 'README.md', 'long names\n');
  });
  after(() => t.close());

  async function state() {
    const repo = `/api/v3/projects/${project.id}/repository`;
    const branches = await t.request('GET', `${repo}/branches`, { token: owner.token });
    const tags = await t.request('GET', `${repo}/tags`, { token: owner.token });
    const tree = await t.request('GET', `${repo}/tree?recursive=true`, { token: owner.token });
    const settings = await t.request('GET', `/api/v3/projects/${project.id}`, { token: owner.token });
    return {
      branches: branches.body,
      tags: tags.body,
      tree: tree.body,
      branch: settings.body.default_branch,
    };
  }

  it('refuses each git-backed write with 4xx and a JSON body, and changes nothing', async () => {
    const before = await state();
    const base = `/api/v3/projects/${project.id}`;
    const repo = `${base}/repository`;
    const file = { content: 'x', commit_message: 'm' };
    const writes: [string, string, Record<string, unknown>][] = [
      ['POST', `${repo}/branches`, { branch_name: HUGE, ref: 'master' }],
      ['POST', `${repo}/branches`, { branch_name: 'b'.repeat(256), ref: 'master' }],
      ['POST', `${repo}/branches`, { branch_name: 'b'.repeat(251), ref: 'master' }],
      ['POST', `${repo}/branches`, { branch_name: `${'b/'.repeat(127)}bb`, ref: 'master' }],
      ['POST', `${repo}/branches`, { branch_name: 'ok', ref: HUGE }],
      ['POST', `${repo}/tags`, { tag_name: HUGE, ref: 'master' }],
      ['POST', `${repo}/tags`, { tag_name: 't'.repeat(256), ref: 'master' }],
      ['POST', `${repo}/tags`, { tag_name: 'ok', ref: HUGE }],
      ['POST', `${repo}/files`, { file_path: HUGE, branch_name: 'master', ...file }],
      ['POST', `${repo}/files`, { file_path: `dir/${'f'.repeat(256)}`, branch_name: 'master', ...file }],
      ['POST', `${repo}/files`, { file_path: 'f', branch_name: HUGE, ...file }],
      ['PUT', `${repo}/files`, { file_path: HUGE, branch_name: 'master', ...file }],
      ['PUT', `${repo}/files`, { file_path: 'README.md', branch_name: HUGE, ...file }],
      ['DELETE', `${repo}/files`, { file_path: HUGE, branch_name: 'master', commit_message: 'm' }],
      [
        'POST',
        `${repo}/commits`,
        {
          branch_name: 'master',
          commit_message: 'm',
          actions: [{ action: 'create', file_path: HUGE, content: 'x' }],
        },
      ],
      [
        'POST',
        `${repo}/commits`,
        {
          branch_name: 'master',
          commit_message: 'm',
          actions: [{ action: 'move', file_path: 'moved', previous_path: HUGE, content: 'x' }],
        },
      ],
      ['POST', `${repo}/commits`, { branch_name: HUGE, commit_message: 'm', actions: [] }],
      ['PUT', `${repo}/branches/${encodeURIComponent(HUGE)}/protect`, {}],
      ['DELETE', `${repo}/branches/${encodeURIComponent(HUGE)}`, {}],
      ['DELETE', `${repo}/tags/${encodeURIComponent(HUGE)}`, {}],
      ['POST', `${repo}/tags/${encodeURIComponent(HUGE)}/release`, { description: 'x' }],
      ['PUT', base, { default_branch: HUGE }],
      ['POST', `${base}/trigger/builds`, { token: 'x', ref: HUGE }],
    ];
    const failures: string[] = [];
    for (const [method, url, body] of writes) {
      const response = await t.request(method, url, { token: owner.token, body });
      const label = `${method} ${url.slice(0, 70)} ${JSON.stringify(body).slice(0, 70)}`;
      if (response.status < 400 || response.status >= 500 || typeof response.body !== 'object') {
        failures.push(`${label} -> ${response.status} ${response.text.slice(0, 80)}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(await state(), before);
    const branch = await t.request('POST', `${repo}/branches`, {
      token: owner.token,
      body: { branch_name: 'b'.repeat(256), ref: 'master' },
    });
    assert.deepEqual(branch.body, { message: 'Branch name is invalid' });
    const tag = await t.request('POST', `${repo}/tags`, {
      token: owner.token,
      body: { tag_name: 't'.repeat(256), ref: 'master' },
    });
    assert.deepEqual(tag.body, { message: 'Tag name invalid' });
    // A ref is a file (and its lock file `<name>.lock`) before it is packed: 250 bytes per component.
    const component = await t.request('POST', `${repo}/branches`, {
      token: owner.token,
      body: { branch_name: 'c'.repeat(251), ref: 'master' },
    });
    assert.deepEqual(component.body, { message: 'Branch name is invalid' });
    for (const name of ['c'.repeat(250), `${'d'.repeat(200)}/${'e'.repeat(54)}`]) {
      const longest = await t.request('POST', `${repo}/branches`, {
        token: owner.token,
        body: { branch_name: name, ref: 'master' },
      });
      assert.equal(longest.status, 201, longest.text);
      assert.equal(longest.body.name, name);
    }
  });

  it('answers each git-backed read of a huge name as it answers a name that does not exist', async () => {
    const base = `/api/v3/projects/${project.id}`;
    const repo = `${base}/repository`;
    const reads = [
      (name: string) => `${repo}/files?file_path=${name}&ref=master`,
      (name: string) => `${repo}/files?file_path=README.md&ref=${name}`,
      (name: string) => `${repo}/tree?ref_name=${name}`,
      (name: string) => `${repo}/tree?path=${name}`,
      (name: string) => `${repo}/commits?ref_name=${name}`,
      (name: string) => `${repo}/commits/${name}`,
      (name: string) => `${repo}/commits/${name}/diff`,
      (name: string) => `${repo}/commits/${name}/statuses`,
      (name: string) => `${repo}/commits/master/blob?filepath=${name}`,
      (name: string) => `${repo}/blobs/master?filepath=${name}`,
      (name: string) => `${repo}/blobs/${name}?filepath=README.md`,
      (name: string) => `${repo}/raw_blobs/${name}`,
      (name: string) => `${repo}/compare?from=${name}&to=master`,
      (name: string) => `${repo}/compare?from=master&to=${name}`,
      (name: string) => `${repo}/archive?sha=${name}`,
      (name: string) => `${repo}/branches/${name}`,
      (name: string) => `${repo}/tags/${name}`,
      (name: string) => `${base}/builds/artifacts/${name}/download?job=x`,
      (name: string) => `${base}/builds/artifacts/master/download?job=${name}`,
    ];
    const failures: string[] = [];
    for (const read of reads) {
      const absent = await t.request('GET', read(ABSENT), { token: owner.token });
      const huge = await t.request('GET', read(HUGE), { token: owner.token });
      const label = read('NAME');
      // A path segment past the router's parameter limit is refused before any route: 414.
      if (huge.status === 414 && label.split('?')[0]!.includes('NAME')) continue;
      if (huge.status >= 500 || huge.status !== absent.status) {
        failures.push(`${label}: ${huge.status} ${huge.text.slice(0, 60)}, absent name ${absent.status}`);
      } else if (huge.status < 400 && JSON.stringify(huge.body) !== JSON.stringify(absent.body)) {
        failures.push(`${label}: ${huge.text.slice(0, 60)}, absent name ${absent.text.slice(0, 60)}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('refuses a search string longer than any name with 400, on each list that searches', async () => {
    for (const url of ['/api/v3/projects', '/api/v3/users', '/api/v3/groups', '/api/v3/namespaces']) {
      const response = await t.request('GET', `${url}?search=${'s'.repeat(1025)}`, { token: t.rootToken });
      assert.equal(response.status, 400, url);
      assert.deepEqual(response.body, { error: 'search is invalid' });
      const ok = await t.request('GET', `${url}?search=${'s'.repeat(1024)}`, { token: t.rootToken });
      assert.equal(ok.status, 200, url);
      assert.deepEqual(ok.body, []);
    }
  });
});
