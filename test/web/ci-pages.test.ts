// The CI pages as a browser without script sees them (the live trace's poll included): pipelines and
// builds lists with their scopes, a pipeline with its stages and YAML error, a build with its trace
// rendered safely in colour, the trace's pieces by byte offset, artifacts downloaded and browsed, the
// buttons of developers and their refusals for reporters, strangers and signed-out visitors, forms
// without their token, the commit and branch pages' pipeline status, and a fixed query count per page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopClockWorkers, startTestApp, type TestApp } from '../helpers/app.ts';
import { createRoles, createRolesProject, type Roles } from '../helpers/ci-roles.ts';
import { seedPipeline } from '../helpers/ci.ts';
import { WebClient } from '../helpers/web.ts';
import { git } from '../../src/git/exec.ts';
import type { TestProject } from '../helpers/factory.ts';

const ESC = '\x1b';
const EVIL_TRACE = [
  `${ESC}[31;1mred bold${ESC}[0m plain`,
  '<script>alert("trace")</script> & "quotes"',
  `${ESC}[32mgreen continues`,
  `still green${ESC}[0m`,
  `${ESC}]8;;javascript:alert(1)${ESC}\\link${ESC}]8;;${ESC}\\ ${ESC}[2Kerased`,
  'progress 10%\rprogress 100%',
  '',
].join('\n');

describe('pages: pipelines and builds', () => {
  let t: TestApp;
  let roles: Roles;
  let project: TestProject;
  let base = '';
  let sha = '';
  let seeded: Awaited<ReturnType<typeof seedPipeline>>;
  let running: Awaited<ReturnType<typeof seedPipeline>>;
  let refused: Awaited<ReturnType<typeof seedPipeline>>;

  const signedIn = async (role: 'developer' | 'reporter' | 'stranger' | 'master') => {
    const client = new WebClient(t);
    const page = await client.signIn(roles.users[role].username, roles.users[role].password);
    assert.equal(page.status, 302, page.text);
    return client;
  };
  const apiBuild = async (id: number) => {
    const response = await t.request('GET', `/api/v3/projects/${project.id}/builds/${id}`, {
      token: t.rootToken,
    });
    assert.equal(response.status, 200, response.text);
    return response.body as { id: number; status: string; artifacts_file: unknown };
  };

  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    roles = await createRoles(t, 'cip');
    project = await createRolesProject(t, roles, 'cipages', 0, { commit: true });
    base = `/${project.fullPath}`;
    sha = (await git(['rev-parse', 'master'], { cwd: project.repoPath })).trim();
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    seeded = await seedPipeline(t, project, {
      sha,
      status: 'failed',
      userId: roles.users.developer.id,
      builds: [
        {
          name: 'compile',
          stage: 'build',
          stageIdx: 0,
          status: 'success',
          trace: EVIL_TRACE,
          artifacts: { 'out/a.txt': 'hello artifact\n', 'top.txt': 'top\n' },
          artifactsExpireAt: expires,
        },
        { name: 'unit <tests>', stage: 'test', stageIdx: 1, status: 'failed', trace: 'boom\n' },
        { name: 'deploy', stage: 'deploy', stageIdx: 2, status: 'skipped', when: 'manual' },
      ],
    });
    running = await seedPipeline(t, project, {
      sha,
      status: 'running',
      builds: [
        { name: 'long', stage: 'test', stageIdx: 0, status: 'running', trace: 'first line\npartial' },
        { name: 'queued', stage: 'test', stageIdx: 0, status: 'pending', startedAt: null },
      ],
    });
    refused = await seedPipeline(t, project, { sha, status: 'failed', builds: [] });
    await t.server.deps.db.kysely
      .updateTable('ci_pipelines')
      .set({ yaml_errors: 'jobs:unit script can not be <blank>' })
      .where('id', '=', refused.pipeline.id)
      .execute();
  });
  after(() => t.close());

  it('lists pipelines with their status, ref, commit, user and stages, by scope', async () => {
    const client = await signedIn('reporter');
    const page = await client.get(`${base}/pipelines`);
    assert.equal(page.status, 200, page.text);
    for (const p of [seeded, running, refused]) assert.match(page.text, new RegExp(`#${p.pipeline.id}<`));
    assert.match(page.text, new RegExp(sha.slice(0, 8)));
    assert.match(page.text, new RegExp(`by ${roles.users.developer.username}`));
    assert.match(
      page.text,
      /class="stage-name">build<.*class="stage-name">test<.*class="stage-name">deploy</s,
    );
    assert.match(page.text, /yaml invalid/);
    assert.match(page.text, /aria-current="page"[^>]*>All</);
    const runningOnly = await client.get(`${base}/pipelines?scope=running`);
    assert.equal(runningOnly.status, 200);
    assert.match(runningOnly.text, new RegExp(`#${running.pipeline.id}<`));
    assert.doesNotMatch(runningOnly.text, new RegExp(`#${seeded.pipeline.id}<`));
    const finished = await client.get(`${base}/pipelines?scope=finished`);
    assert.match(finished.text, new RegExp(`#${seeded.pipeline.id}<`));
    assert.doesNotMatch(finished.text, new RegExp(`#${running.pipeline.id}<`));
    const branches = await client.get(`${base}/pipelines?scope=branches`);
    assert.match(branches.text, new RegExp(`#${refused.pipeline.id}<`));
    assert.doesNotMatch(branches.text, new RegExp(`#${seeded.pipeline.id}<`));
    assert.equal((await client.get(`${base}/pipelines?scope=nonsense`)).status, 400);
    assert.equal((await client.get(`${base}/pipelines?page=0`)).status, 400);
  });

  it('shows a pipeline: its stages in order with each build, its commit, and a refused file', async () => {
    const client = await signedIn('reporter');
    const page = await client.get(`${base}/pipelines/${seeded.pipeline.id}`);
    assert.equal(page.status, 200, page.text);
    const [compile, unit, deploy] = seeded.builds;
    assert.match(
      page.text,
      new RegExp(
        `<h2 id="stage-0">.*build</h2>.*builds/${compile!.id}">compile<.*` +
          `<h2 id="stage-1">.*test</h2>.*builds/${unit!.id}">unit &lt;tests><.*` +
          `<h2 id="stage-2">.*deploy</h2>.*builds/${deploy!.id}">deploy<.*manual`,
        's',
      ),
    );
    assert.match(page.text, new RegExp(`commit/${sha}`));
    // A reporter gets no buttons.
    assert.doesNotMatch(page.text, /Retry failed|Cancel running/);
    const yaml = await client.get(`${base}/pipelines/${refused.pipeline.id}`);
    assert.match(yaml.text, /Found errors in your .gitlab-ci.yml/);
    assert.match(yaml.text, /script can not be &lt;blank>/);
    assert.equal((await client.get(`${base}/pipelines/999999`)).status, 404);
    assert.equal((await client.get(`${base}/pipelines/abc`)).status, 404);
  });

  it('lists builds by scope', async () => {
    const client = await signedIn('reporter');
    const all = await client.get(`${base}/builds`);
    assert.equal(all.status, 200, all.text);
    for (const build of [...seeded.builds, ...running.builds]) {
      assert.match(all.text, new RegExp(`builds/${build.id}">#${build.id}<`));
    }
    const runningOnly = await client.get(`${base}/builds?scope=running`);
    assert.match(runningOnly.text, new RegExp(`#${running.builds[0]!.id}<`));
    assert.doesNotMatch(runningOnly.text, new RegExp(`#${seeded.builds[0]!.id}<`));
    const pending = await client.get(`${base}/builds?scope=pending`);
    assert.match(pending.text, new RegExp(`#${running.builds[1]!.id}<`));
    assert.doesNotMatch(pending.text, new RegExp(`#${running.builds[0]!.id}<`));
    assert.equal((await client.get(`${base}/builds?scope=success`)).status, 400);
  });

  it('shows a build with its trace escaped and coloured, and no buttons for a reporter', async () => {
    const client = await signedIn('reporter');
    const compile = seeded.builds[0]!;
    const page = await client.get(`${base}/builds/${compile.id}`);
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /<span class="term-fg-red term-bold">red bold<\/span> plain/);
    assert.match(
      page.text,
      /&lt;script&gt;alert\(&quot;trace&quot;\)&lt;\/script&gt; &amp; &quot;quotes&quot;/,
    );
    assert.doesNotMatch(page.text, /<script>alert/);
    // The colour goes on across lines; other escape sequences vanish; a carriage return overwrites.
    assert.match(
      page.text,
      /<span class="term-fg-green">green continues<\/span>\n<span class="term-fg-green">still green<\/span>/,
    );
    assert.match(page.text, /\nlink erased\n/);
    assert.doesNotMatch(page.text, /javascript:/);
    assert.match(page.text, /\nprogress 100%\n/);
    assert.doesNotMatch(page.text, /progress 10%/);
    assert.match(page.text, /data-complete="true"/);
    assert.match(page.text, new RegExp(`href="${base}/builds/${compile.id}/raw"`));
    assert.doesNotMatch(page.text, /<button type="submit"[^>]*>(Cancel|Retry|Play|Erase|Keep)</);
    const raw = await client.get(`${base}/builds/${compile.id}/raw`);
    assert.equal(raw.status, 200);
    assert.equal(raw.text, EVIL_TRACE);
    assert.match(String(raw.headers['content-type']), /^text\/plain/);
    assert.match(String(raw.headers['content-security-policy']), /sandbox/);
  });

  it('answers the trace after a byte offset: only new bytes, whole lines, the style carried on', async () => {
    const client = await signedIn('reporter');
    const long = running.builds[0]!;
    const page = await client.get(`${base}/builds/${long.id}`);
    assert.match(page.text, /data-complete="false"/);
    assert.match(page.text, /data-offset="11"/); // "first line\n": the partial line waits for its end
    assert.match(page.text, /data-status="running"/);
    const poll = async (offset: number, state = '') => {
      const response = await client.get(
        `${base}/builds/${long.id}/trace.json?offset=${offset}&state=${encodeURIComponent(state)}`,
      );
      assert.equal(response.status, 200, response.text);
      return JSON.parse(response.text) as {
        start: number;
        offset: number;
        html: string;
        state: string;
        status: string;
        complete: boolean;
        more: boolean;
      };
    };
    assert.deepEqual(await poll(11), {
      id: long.id,
      status: 'running',
      start: 11,
      offset: 11,
      state: '',
      html: '',
      more: false,
      complete: false,
    });
    // The runner appends through its protocol.
    const append = async (from: number, text: string) => {
      const response = await t.server.app.inject({
        method: 'PATCH',
        url: `/ci/api/v1/builds/${long.id}/trace.txt`,
        headers: {
          'build-token': long.token!,
          'content-range': `${from}-${from + Buffer.byteLength(text) - 1}`,
          'content-type': 'text/plain',
        },
        payload: text,
      });
      assert.equal(response.statusCode, 202, response.body);
    };
    await append(18, ` line ${ESC}[34mblue\nnext <b>\n`);
    const grown = await poll(11);
    assert.equal(grown.start, 11);
    assert.equal(
      grown.html,
      'partial line <span class="term-fg-blue">blue</span>\n<span class="term-fg-blue">next &lt;b&gt;</span>\n',
    );
    assert.equal(grown.state, '38;5;4');
    assert.equal(grown.offset, 11 + Buffer.byteLength(`partial line ${ESC}[34mblue\nnext <b>\n`));
    // The state handed back keeps the colour; a forged one is ignored.
    const length = grown.offset;
    await append(length, 'still blue\n');
    assert.equal((await poll(length, grown.state)).html, '<span class="term-fg-blue">still blue</span>\n');
    assert.equal((await poll(length, '"><script>')).html, 'still blue\n');
    // An offset past the end (the trace was replaced) reads from the start again.
    const reset = await poll(10_000_000);
    assert.equal(reset.start, 0);
    assert.match(reset.html, /^first line\n/);
    assert.equal((await client.get(`${base}/builds/${long.id}/trace.json?offset=-1`)).status, 400);
    assert.equal((await client.get(`${base}/builds/${long.id}/trace.json?offset=x`)).status, 400);
    // A finished build's poll says it is complete once read to the end.
    const done = await poll(0);
    assert.equal(done.complete, false);
    const finished = await client.get(`${base}/builds/${seeded.builds[1]!.id}/trace.json?offset=5`);
    assert.deepEqual(JSON.parse(finished.text).complete, true);
  });

  it('shows only the end of a huge trace, and polls catch up piece by piece', async () => {
    const line = `${'x'.repeat(99)}\n`;
    const big = line.repeat(6000); // 600,000 bytes
    const huge = await seedPipeline(t, project, {
      sha,
      builds: [{ name: 'huge', status: 'success', trace: big }],
    });
    const client = await signedIn('reporter');
    const id = huge.builds[0]!.id;
    const page = await client.get(`${base}/builds/${id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /only the last 256 KB are shown here/);
    const shown = /<pre id="build-trace" class="trace">([^<]*)<\/pre>/.exec(page.text)![1]!;
    assert.ok(big.endsWith(shown) && shown.length <= 256 * 1024 && shown.startsWith('x'));
    const first = JSON.parse((await client.get(`${base}/builds/${id}/trace.json?offset=0`)).text);
    assert.equal(first.more, true);
    assert.equal(first.complete, false);
    assert.equal(first.offset % 100, 0);
    assert.ok(first.offset <= 256 * 1024);
    let offset = first.offset;
    let text = first.html;
    for (let round = 0; round < 3 && offset < big.length; round++) {
      const next = JSON.parse((await client.get(`${base}/builds/${id}/trace.json?offset=${offset}`)).text);
      text += next.html;
      offset = next.offset;
    }
    assert.equal(offset, big.length);
    assert.equal(text, big);
  });

  it('hides the pages from strangers and asks signed-out visitors to sign in', async () => {
    const stranger = await signedIn('stranger');
    const build = seeded.builds[0]!;
    for (const path of [
      '/pipelines',
      `/pipelines/${seeded.pipeline.id}`,
      '/builds',
      `/builds/${build.id}`,
      `/builds/${build.id}/trace.json`,
      `/builds/${build.id}/raw`,
      `/builds/${build.id}/artifacts/download`,
      `/builds/${build.id}/artifacts/browse`,
      `/builds/${build.id}/artifacts/file/top.txt`,
    ]) {
      assert.equal((await stranger.get(`${base}${path}`)).status, 404, path);
      const anonymous = await new WebClient(t).get(`${base}${path}`);
      assert.equal(anonymous.status, 302, path);
      assert.match(String(anonymous.headers.location), /^\/users\/sign_in\?redirect_to=/);
    }
    // A guest may not read builds of a private project (as the API answers).
    const guest = new WebClient(t);
    await guest.signIn(roles.users.guest.username, roles.users.guest.password);
    assert.equal((await guest.get(`${base}/builds/${build.id}`)).status, 403);
    const before = await apiBuild(running.builds[0]!.id);
    const strangerPost = await stranger.post(`${base}/builds/${running.builds[0]!.id}/cancel`);
    assert.equal(strangerPost.status, 404);
    assert.equal((await apiBuild(running.builds[0]!.id)).status, before.status);
  });

  it('refuses every button to a reporter, on the page, and changes nothing', async () => {
    const reporter = await signedIn('reporter');
    const [compile, unit, deploy] = seeded.builds;
    const long = running.builds[0]!;
    const attempts: Array<[string, number]> = [
      [`/builds/${long.id}/cancel`, long.id],
      [`/builds/${unit!.id}/retry`, unit!.id],
      [`/builds/${deploy!.id}/play`, deploy!.id],
      [`/builds/${compile!.id}/erase`, compile!.id],
      [`/builds/${compile!.id}/artifacts/keep`, compile!.id],
    ];
    for (const [path, id] of attempts) {
      const before = await apiBuild(id);
      await reporter.get(`${base}/builds/${id}`);
      const answer = await reporter.post(`${base}${path}`);
      assert.equal(answer.status, 403, path);
      assert.match(answer.text, /class="flash alert"[^>]*>You are not allowed to/);
      assert.deepEqual(await apiBuild(id), before, path);
    }
    for (const action of ['retry', 'cancel']) {
      const answer = await reporter.post(`${base}/pipelines/${running.pipeline.id}/${action}`);
      assert.equal(answer.status, 403, action);
      assert.match(answer.text, /You are not allowed to/);
    }
    assert.equal((await apiBuild(long.id)).status, 'running');
  });

  it('changes nothing for a form without its token', async () => {
    const developer = await signedIn('developer');
    const long = running.builds[0]!;
    const paths = [
      `/builds/${long.id}/cancel`,
      `/builds/${seeded.builds[1]!.id}/retry`,
      `/builds/${seeded.builds[2]!.id}/play`,
      `/builds/${seeded.builds[0]!.id}/erase`,
      `/builds/${seeded.builds[0]!.id}/artifacts/keep`,
      `/pipelines/${running.pipeline.id}/cancel`,
      `/pipelines/${seeded.pipeline.id}/retry`,
    ];
    const builds = async () =>
      (await t.request('GET', `/api/v3/projects/${project.id}/builds?per_page=100`, { token: t.rootToken }))
        .body;
    const before = await builds();
    for (const path of paths) {
      const answer = await developer.request('POST', `${base}${path}`, {});
      assert.equal(answer.status, 422, path);
      const forged = await developer.request('POST', `${base}${path}`, { authenticity_token: 'forged' });
      assert.equal(forged.status, 422, path);
    }
    assert.deepEqual(await builds(), before);
  });

  it('lets a developer retry, play, keep, erase and cancel from the pages', async () => {
    const developer = await signedIn('developer');
    const [compile, unit, deploy] = seeded.builds;
    const manual = await developer.get(`${base}/builds/${deploy!.id}`);
    assert.match(manual.text, /<button type="submit">Play</);
    const played = await developer.post(`${base}/builds/${deploy!.id}/play`);
    assert.equal(played.status, 302, played.text);
    assert.equal((await apiBuild(deploy!.id)).status, 'pending');
    const page = await developer.get(`${base}/builds/${unit!.id}`);
    assert.match(page.text, /<button type="submit">Retry</);
    const retried = await developer.post(`${base}/builds/${unit!.id}/retry`);
    assert.equal(retried.status, 302, retried.text);
    const newId = Number(/builds\/(\d+)\?done=retried$/.exec(String(retried.headers.location))![1]);
    assert.ok(newId > unit!.id);
    assert.equal((await apiBuild(newId)).status, 'pending');
    const shown = await developer.get(String(retried.headers.location));
    assert.match(shown.text, /The build was retried\./);
    assert.match(shown.text, /<button type="submit" class="btn-danger">Cancel</);

    // A build that is not a waiting manual one cannot be played: the reason is shown on its page.
    const unplayable = await developer.post(`${base}/builds/${compile!.id}/play`);
    assert.equal(unplayable.status, 400);
    assert.match(unplayable.text, /class="flash alert"[^>]*>.*Unplayable Build/);

    const kept = await developer.post(`${base}/builds/${compile!.id}/artifacts/keep`);
    assert.equal(kept.status, 302);
    const keptPage = await developer.get(String(kept.headers.location));
    assert.match(keptPage.text, /The artifacts will be kept\./);
    assert.doesNotMatch(keptPage.text, /They expire/);

    const cancel = await developer.post(`${base}/builds/${newId}/cancel`);
    assert.equal(cancel.status, 302);
    assert.equal((await apiBuild(newId)).status, 'canceled');
  });

  it('downloads artifacts, browses them and downloads one file', async () => {
    const client = await signedIn('reporter');
    const compile = seeded.builds[0]!;
    const url = `${base}/builds/${compile.id}`;
    const download = await t.server.app.inject({
      method: 'GET',
      url: `${url}/artifacts/download`,
      headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    assert.equal(download.statusCode, 200);
    assert.match(String(download.headers['content-disposition']), /^attachment; filename="artifacts.zip"/);
    const api = await t.server.app.inject({
      method: 'GET',
      url: `/api/v3/projects/${project.id}/builds/${compile.id}/artifacts`,
      headers: { 'private-token': t.rootToken },
    });
    assert.equal(api.statusCode, 200);
    assert.equal(download.rawPayload.subarray(0, 2).toString('latin1'), 'PK');
    assert.ok(download.rawPayload.equals(api.rawPayload));

    const root = await client.get(`${url}/artifacts/browse`);
    assert.equal(root.status, 200, root.text);
    assert.match(root.text, new RegExp(`href="${url}/artifacts/browse/out">out/<`));
    assert.match(root.text, new RegExp(`href="${url}/artifacts/file/top.txt">top.txt<`));
    const dir = await client.get(`${url}/artifacts/browse/out`);
    assert.match(dir.text, new RegExp(`href="${url}/artifacts/file/out/a.txt">a.txt<`));
    assert.match(dir.text, /15 bytes/);
    const file = await client.get(`${url}/artifacts/file/out/a.txt`);
    assert.equal(file.status, 200);
    assert.equal(file.text, 'hello artifact\n');
    assert.match(String(file.headers['content-disposition']), /^attachment; filename="a.txt"/);
    assert.equal((await client.get(`${url}/artifacts/file/out/missing.txt`)).status, 404);
    assert.equal((await client.get(`${url}/artifacts/file/out/`)).status, 404);
    assert.equal((await client.get(`${url}/artifacts/browse/nowhere`)).status, 404);
    const none = seeded.builds[1]!;
    assert.equal((await client.get(`${base}/builds/${none.id}/artifacts/browse`)).status, 404);
    assert.equal((await client.get(`${base}/builds/${none.id}/artifacts/download`)).status, 404);
  });

  it('retries and cancels a whole pipeline', async () => {
    const developer = await signedIn('developer');
    const page = await developer.get(`${base}/pipelines/${running.pipeline.id}`);
    assert.match(page.text, /Cancel running/);
    const canceled = await developer.post(`${base}/pipelines/${running.pipeline.id}/cancel`);
    assert.equal(canceled.status, 302, canceled.text);
    assert.match(String(canceled.headers.location), /\?done=pipeline_canceled$/);
    for (const build of running.builds) assert.equal((await apiBuild(build.id)).status, 'canceled');
    const after = await developer.get(String(canceled.headers.location));
    assert.match(after.text, /The running builds of this pipeline were canceled\./);
    const failed = await seedPipeline(t, project, {
      sha,
      status: 'failed',
      builds: [{ name: 'flaky', status: 'failed' }],
    });
    const retried = await developer.post(`${base}/pipelines/${failed.pipeline.id}/retry`);
    assert.equal(retried.status, 302, retried.text);
    const builds = await t.request('GET', `/api/v3/projects/${project.id}/builds?scope=pending`, {
      token: t.rootToken,
    });
    assert.ok(
      (builds.body as Array<{ name: string; pipeline: { id: number } }>).some(
        (b) => b.name === 'flaky' && b.pipeline.id === failed.pipeline.id,
      ),
    );
  });

  it('erases a finished build: its trace and artifacts go', async () => {
    const developer = await signedIn('developer');
    const target = await seedPipeline(t, project, {
      sha,
      builds: [{ name: 'gone', status: 'success', trace: 'secret output\n', artifacts: { 'f.txt': 'f' } }],
    });
    const id = target.builds[0]!.id;
    assert.match((await developer.get(`${base}/builds/${id}`)).text, /secret output/);
    const erased = await developer.post(`${base}/builds/${id}/erase`);
    assert.equal(erased.status, 302, erased.text);
    const page = await developer.get(String(erased.headers.location));
    assert.match(page.text, /trace and artifacts were erased/);
    assert.doesNotMatch(page.text, /secret output/);
    assert.equal((await apiBuild(id)).artifacts_file, null);
    assert.equal((await developer.get(`${base}/builds/${id}/raw`)).status, 404);
  });

  it('shows the pipeline status on the commit and branches pages', async () => {
    const client = await signedIn('reporter');
    const newest = await seedPipeline(t, project, { sha, status: 'success', builds: [] });
    const commit = await client.get(`${base}/commit/${sha}`);
    assert.equal(commit.status, 200);
    assert.match(
      commit.text,
      new RegExp(`href="${base}/pipelines/${newest.pipeline.id}"><span aria-hidden="true">✓</span> success`),
    );
    const branches = await client.get(`${base}/branches`);
    assert.match(branches.text, new RegExp(`href="${base}/pipelines/${newest.pipeline.id}"`));
  });

  it('costs the same number of queries for a page of 3 pipelines or builds as for 30', async () => {
    const other = await createRolesProject(t, roles, 'ciqueries', 0, { commit: true });
    const otherSha = (await git(['rev-parse', 'master'], { cwd: other.repoPath })).trim();
    const client = await signedIn('reporter');
    const count = async (path: string) => {
      await client.get(`/${other.fullPath}${path}`);
      let queries = 0;
      t.server.deps.db.onQuery = () => {
        queries += 1;
      };
      try {
        const page = await client.get(`/${other.fullPath}${path}`);
        assert.equal(page.status, 200);
      } finally {
        t.server.deps.db.onQuery = undefined;
      }
      return queries;
    };
    const seed = async (n: number) => {
      for (let i = 0; i < n; i++) {
        await seedPipeline(t, other, {
          sha: otherSha,
          userId: i % 2 ? roles.users.developer.id : roles.users.master.id,
          builds: [
            { name: 'a', stage: 'build', stageIdx: 0, status: 'success' },
            { name: 'b', stage: 'test', stageIdx: 1, status: 'failed' },
          ],
        });
      }
    };
    await seed(3);
    const small = { pipelines: await count('/pipelines'), builds: await count('/builds') };
    await seed(27);
    const large = { pipelines: await count('/pipelines'), builds: await count('/builds') };
    assert.deepEqual(large, small);
  });
});
