// Every `web_url` leads somewhere: the API's project, user and group URLs and each page URL that push,
// tag push, pipeline and build hook payloads carry answer 200 as a page for a signed-in member (and send
// a signed-out visitor of the private project to sign in). Issue, merge request and note URLs are left
// to the tests of their own pages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCiProject, type CiProject } from '../helpers/ci.ts';
import { addGroupMember, createGroup, createProject } from '../helpers/factory.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { WebClient } from '../helpers/web.ts';

/** Every string under `key` anywhere in a JSON value, with where it was found. */
function valuesOf(value: unknown, keys: Set<string>, where = ''): Array<{ where: string; url: string }> {
  if (Array.isArray(value)) return value.flatMap((item, i) => valuesOf(item, keys, `${where}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    typeof inner === 'string' && keys.has(key)
      ? [{ where: `${where}.${key}`, url: inner }]
      : valuesOf(inner, keys, `${where}.${key}`),
  );
}

describe('web_url and page URLs in API answers and hook payloads', () => {
  let ci: CiProject;
  let receiver: Receiver;
  let external: string;

  before(async () => {
    ci = await startCiProject({}, 'linked');
    external = ci.t.config.externalUrl;
    receiver = await startReceiver();
    const hook = await ci.t.request('POST', `/api/v3/projects/${ci.project.id}/hooks`, {
      token: ci.owner.token,
      body: {
        url: receiver.url,
        push_events: true,
        tag_push_events: true,
        pipeline_events: true,
        build_events: true,
      },
    });
    assert.equal(hook.status, 201);
  });
  after(async () => {
    await ci?.close();
    await receiver?.close();
  });

  /** A page path from a URL under the external URL. */
  const pagePath = (url: string): string => {
    assert.ok(url.startsWith(`${external}/`), `${url} is not under ${external}`);
    return url.slice(external.length);
  };

  async function assertPages(urls: Array<{ where: string; url: string }>): Promise<void> {
    const member = new WebClient(ci.t);
    assert.equal((await member.signIn(ci.owner.username, ci.owner.password)).status, 302);
    const answers: string[] = [];
    for (const { where, url } of urls) answers.push(`${where} ${(await member.get(pagePath(url))).status}`);
    assert.deepEqual(
      answers,
      urls.map(({ where }) => `${where} 200`),
    );
  }

  it("the API's project, user and group web_url", async () => {
    const groupId = await createGroup(ci.t, 'linked-group', 0);
    await addGroupMember(ci.t, groupId, ci.owner.id, 50);
    const inGroup = await createProject(ci.t, {
      owner: ci.owner,
      path: 'grouped',
      namespace: 'linked-group',
    });
    const read = async (path: string) => {
      const response = await ci.t.request('GET', `/api/v3${path}`, { token: ci.owner.token });
      assert.equal(response.status, 200);
      return response.body as { web_url: string };
    };
    const urls = [
      { where: 'project', url: (await read(`/projects/${ci.project.id}`)).web_url },
      { where: 'project in a group', url: (await read(`/projects/${inGroup.id}`)).web_url },
      { where: 'user', url: (await read(`/users/${ci.owner.id}`)).web_url },
      { where: 'group', url: (await read(`/groups/${groupId}`)).web_url },
    ];
    assert.deepEqual(
      urls.map(({ url }) => pagePath(url)),
      [`/${ci.project.fullPath}`, '/linked-group/grouped', `/${ci.owner.username}`, '/groups/linked-group'],
    );
    await assertPages(urls);
  });

  it('the URLs of push, tag push, pipeline and build hooks', async () => {
    await ci.push(
      { '.gitlab-ci.yml': 'build: {script: make}\n', 'docs/README.md': '# Docs\n' },
      'A commit with a pipeline',
    );
    const tagged = await ci.t.request('POST', `/api/v3/projects/${ci.project.id}/repository/tags`, {
      token: ci.owner.token,
      body: { tag_name: 'v1.0', ref: 'master' },
    });
    assert.equal(tagged.status, 201);
    await ci.t.server.hookWorker.drain();
    const events = receiver.received.map((hook) => String(hook.headers['x-gitlab-event']));
    for (const event of ['Push Hook', 'Tag Push Hook', 'Pipeline Hook', 'Build Hook']) {
      assert.ok(events.includes(event), `no ${event} among ${events.join(', ')}`);
    }
    // Every URL the payloads carry that is a page of ours (clone URLs end in .git; avatars are Gravatar's).
    const urls = receiver.received
      .flatMap((hook) =>
        valuesOf(hook.body, new Set(['web_url', 'url', 'homepage']), String(hook.headers['x-gitlab-event'])),
      )
      .filter(({ url }) => url.startsWith(`${external}/`) && !url.endsWith('.git'));
    const kinds = new Set(urls.map(({ where }) => where.replace(/\[\d+\]/g, '[]')));
    for (const kind of [
      'Push Hook.project.web_url',
      'Push Hook.project.homepage',
      'Push Hook.repository.homepage',
      'Push Hook.commits[].url',
      'Tag Push Hook.project.web_url',
      'Tag Push Hook.repository.homepage',
      'Pipeline Hook.project.web_url',
      'Pipeline Hook.commit.url',
    ]) {
      assert.ok(kinds.has(kind), `${kind} missing from ${[...kinds].join(', ')}`);
    }
    await assertPages(urls);

    const stranger = new WebClient(ci.t);
    const signedOut = await stranger.get(pagePath(urls[0].url));
    assert.equal(signedOut.status, 302);
    assert.match(String(signedOut.headers.location), /^\/users\/sign_in\?redirect_to=/);
  });
});
