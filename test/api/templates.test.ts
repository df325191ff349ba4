// File templates over HTTP: GitLab 8.13's v3 /licenses, /gitignores, /gitlab_ci_ymls (bare and under
// /templates/), today's v4 /templates/… with Dockerfiles and pagination, and v4's per-project
// /projects/:id/templates/:type — entities key by key, placeholders filled, GitLab's 404s and 400s.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';

const V3_LICENSE_KEYS = [
  'key',
  'name',
  'nickname',
  'popular',
  'html_url',
  'source_url',
  'description',
  'conditions',
  'permissions',
  'limitations',
  'content',
];
const V4_LICENSE_KEYS = [
  'key',
  'name',
  'nickname',
  'html_url',
  'source_url',
  'popular',
  'description',
  'conditions',
  'permissions',
  'limitations',
  'content',
];

describe('file templates', () => {
  let t: TestApp;
  let user: TestUser;
  let stranger: TestUser;
  let secret: TestProject;
  let open: TestProject;
  const year = String(new Date().getUTCFullYear());

  before(async () => {
    t = await startTestApp();
    user = await createUser(t, 'tpluser', { name: 'Ada Lovelace' });
    stranger = await createUser(t, 'tplstranger');
    secret = await createProject(t, { owner: user, path: 'tplsecret' });
    open = await createProject(t, { owner: user, path: 'tplopen', visibility: 20 });
  });
  after(() => t.close());

  it('v3: gitignores and gitlab_ci_ymls, bare and under /templates/, without a token', async () => {
    for (const prefix of ['/api/v3', '/api/v3/templates']) {
      const list = await t.request('GET', `${prefix}/gitignores`);
      assert.equal(list.status, 200, list.text);
      assert.equal(list.headers['x-total'], undefined, '8.13 did not paginate templates');
      const names = list.body.map((entry: { name: string }) => entry.name);
      for (const name of ['Node', 'Python', 'Go', 'Ruby', 'Java', 'Rust', 'macOS'])
        assert.ok(names.includes(name));
      assert.deepEqual(Object.keys(list.body[0]), ['name']);
      // Languages before the global group, as 8.13 listed them.
      assert.ok(names.indexOf('Rust') < names.indexOf('macOS'));

      const node = await t.request('GET', `${prefix}/gitignores/Node`);
      assert.equal(node.status, 200, node.text);
      assert.deepEqual(Object.keys(node.body), ['name', 'content']);
      assert.equal(node.body.name, 'Node');
      assert.match(node.body.content, /^node_modules\/$/m);

      const ci = await t.request('GET', `${prefix}/gitlab_ci_ymls`);
      const ciNames = ci.body.map((entry: { name: string }) => entry.name);
      for (const name of ['Nodejs', 'Python', 'Go', 'Ruby', 'Docker', 'HTML'])
        assert.ok(ciNames.includes(name));
      const ruby = await t.request('GET', `${prefix}/gitlab_ci_ymls/Ruby`);
      assert.equal(ruby.body.name, 'Ruby');
      assert.match(ruby.body.content, /^# A template/);
      assert.match(ruby.body.content, /bundle exec rake test/);

      const missing = await t.request('GET', `${prefix}/gitignores/Cobol`);
      assert.deepEqual([missing.status, missing.body], [404, { message: '404 gitignore Not Found' }]);
      const lower = await t.request('GET', `${prefix}/gitignores/node`);
      assert.equal(lower.status, 404, 'names are looked up as spelt');
      const missingCi = await t.request('GET', `${prefix}/gitlab_ci_ymls/Cobol`);
      assert.deepEqual(missingCi.body, { message: '404 gitlab_ci_yml Not Found' });
      const proto = await t.request('GET', `${prefix}/gitignores/constructor`);
      assert.equal(proto.status, 404);
    }
    // 8.13 had no Dockerfile templates.
    assert.equal((await t.request('GET', '/api/v3/templates/dockerfiles')).status, 404);
  });

  it('v3: licences with 8.13 entity keys, popular, and placeholders filled', async () => {
    for (const prefix of ['/api/v3', '/api/v3/templates']) {
      const all = await t.request('GET', `${prefix}/licenses`);
      assert.equal(all.status, 200, all.text);
      const keys = all.body.map((license: { key: string }) => license.key);
      for (const key of ['mit', 'apache-2.0', 'gpl-3.0', 'bsd-3-clause', 'mpl-2.0'])
        assert.ok(keys.includes(key));
      assert.deepEqual(keys, [...keys].sort());
      assert.deepEqual(Object.keys(all.body[0]), V3_LICENSE_KEYS);

      const popular = await t.request('GET', `${prefix}/licenses?popular=1`);
      assert.deepEqual(
        popular.body.map((license: { key: string }) => license.key),
        ['apache-2.0', 'gpl-3.0', 'mit'],
      );
      assert.ok(popular.body.every((license: { popular: boolean }) => license.popular === true));
      // 8.13 read `popular.present?`: false lists everything.
      const notPopular = await t.request('GET', `${prefix}/licenses?popular=false`);
      assert.equal(notPopular.body.length, all.body.length);
      const bad = await t.request('GET', `${prefix}/licenses?popular=maybe`);
      assert.deepEqual([bad.status, bad.body], [400, { error: 'popular is invalid' }]);

      const mit = await t.request('GET', `${prefix}/licenses/mit?project=My+Cool+Project&fullname=John+Doe`);
      assert.equal(mit.status, 200, mit.text);
      assert.deepEqual(Object.keys(mit.body), V3_LICENSE_KEYS);
      assert.equal(mit.body.name, 'MIT License');
      assert.equal(mit.body.nickname, null);
      assert.equal(mit.body.popular, true);
      assert.equal(mit.body.html_url, 'http://choosealicense.com/licenses/mit/');
      assert.deepEqual(mit.body.limitations, ['no-liability']);
      assert.ok(mit.body.content.startsWith(`MIT License\n\nCopyright (c) ${year} John Doe\n`));

      // Without fullname, the caller's name; without a caller, the placeholder stays.
      const signedIn = await t.request('GET', `${prefix}/licenses/bsd-3-clause`, { token: user.token });
      assert.match(signedIn.body.content, new RegExp(`Copyright \\(c\\) ${year}, Ada Lovelace\n`));
      const anonymous = await t.request('GET', `${prefix}/licenses/bsd-3-clause`);
      assert.match(anonymous.body.content, new RegExp(`Copyright \\(c\\) ${year}, \\[fullname\\]\n`));

      const gpl = await t.request('GET', `${prefix}/licenses/gpl-3.0?project=Frobnicator&fullname=A+B`);
      assert.equal(gpl.body.nickname, 'GNU GPLv3');
      assert.match(gpl.body.content, /^ {4}Frobnicator$/m);
      assert.match(gpl.body.content, new RegExp(`Copyright \\(C\\) ${year}  A B$`, 'm'));
      assert.ok(gpl.body.content.startsWith('                    GNU GENERAL PUBLIC LICENSE\n'));
      const apache = await t.request('GET', `${prefix}/licenses/apache-2.0?fullname=Ada`);
      assert.match(apache.body.content, new RegExp(`Copyright ${year} Ada$`, 'm'));
      // A `$` in a name is taken as it is.
      const dollars = await t.request('GET', `${prefix}/licenses/isc?fullname=%24%26%24%27`);
      assert.match(dollars.body.content, /, \$&\$'\n/);

      const unknown = await t.request('GET', `${prefix}/licenses/wtfpl`);
      assert.deepEqual([unknown.status, unknown.body], [404, { message: '404 License Not Found' }]);
      const noRoute = await t.request('GET', `${prefix}/licenses/a%20b`);
      assert.deepEqual([noRoute.status, noRoute.body], [404, { error: '404 Not Found' }]);
    }
  });

  it('v4: {key, name} lists paginated, templates, Dockerfiles, licences with v4 keys', async () => {
    const list = await t.request('GET', '/api/v4/templates/gitignores?per_page=3');
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.length, 3);
    assert.deepEqual(Object.keys(list.body[0]), ['key', 'name']);
    assert.equal(list.headers['x-per-page'], '3');
    assert.equal(list.headers['x-page'], '1');
    assert.equal(list.headers['x-next-page'], '2');
    const total = Number(list.headers['x-total']);
    assert.ok(total >= 10);
    assert.equal(list.headers['x-total-pages'], String(Math.ceil(total / 3)));
    assert.match(String(list.headers.link), /rel="next"/);
    const whole = await t.request('GET', '/api/v4/templates/gitignores?per_page=100');
    assert.equal(whole.body.length, total);
    assert.ok(whole.body.every((entry: { key: string; name: string }) => entry.key === entry.name));

    const go = await t.request('GET', '/api/v4/templates/gitignores/Go');
    assert.deepEqual(Object.keys(go.body), ['name', 'content']);
    assert.match(go.body.content, /^\*\.test$/m);
    const ci = await t.request('GET', '/api/v4/templates/gitlab_ci_ymls/Nodejs');
    assert.match(ci.body.content, /npm test/);

    const dockerfiles = await t.request('GET', '/api/v4/templates/dockerfiles');
    const names = dockerfiles.body.map((entry: { name: string }) => entry.name);
    for (const name of ['Go', 'Node', 'Python', 'Ruby', 'Rust']) assert.ok(names.includes(name));
    const docker = await t.request('GET', '/api/v4/templates/dockerfiles/Python');
    assert.match(docker.body.content, /^FROM python:/m);
    const missing = await t.request('GET', '/api/v4/templates/dockerfiles/Cobol');
    assert.deepEqual([missing.status, missing.body], [404, { message: '404 dockerfile Not Found' }]);
    const badPage = await t.request('GET', '/api/v4/templates/gitignores?page=x');
    assert.deepEqual([badPage.status, badPage.body], [400, { error: 'page is invalid' }]);

    const licenses = await t.request('GET', '/api/v4/templates/licenses');
    assert.equal(licenses.status, 200);
    assert.deepEqual(Object.keys(licenses.body[0]), V4_LICENSE_KEYS);
    assert.ok(Number(licenses.headers['x-total']) >= 5);
    const popular = await t.request('GET', '/api/v4/templates/licenses?popular=true');
    assert.deepEqual(
      popular.body.map((license: { key: string }) => license.key),
      ['apache-2.0', 'gpl-3.0', 'mit'],
    );
    // Today's GitLab: popular=false lists the others.
    const others = await t.request('GET', '/api/v4/templates/licenses?popular=false');
    assert.equal(others.body.length + popular.body.length, licenses.body.length);
    assert.ok(others.body.every((license: { popular: boolean }) => !license.popular));
    const mit = await t.request('GET', '/api/v4/templates/licenses/mit', { token: user.token });
    assert.deepEqual(Object.keys(mit.body), V4_LICENSE_KEYS);
    assert.deepEqual(mit.body.limitations, ['liability', 'warranty']);
    assert.match(mit.body.content, new RegExp(`Copyright \\(c\\) ${year} Ada Lovelace`));
    const unknown = await t.request('GET', '/api/v4/templates/licenses/nope');
    assert.deepEqual([unknown.status, unknown.body], [404, { message: '404 License Not Found' }]);
  });

  it('v4: per-project templates follow the project’s visibility', async () => {
    const base = `/api/v4/projects/${secret.id}/templates`;
    const list = await t.request('GET', `${base}/licenses`, { token: user.token });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body[0], { key: 'apache-2.0', name: 'Apache License 2.0' });
    assert.ok(list.headers['x-total']);
    const mit = await t.request('GET', `${base}/licenses/mit?project=Tpl`, { token: user.token });
    assert.deepEqual(Object.keys(mit.body), V4_LICENSE_KEYS);
    assert.match(mit.body.content, /Ada Lovelace/);
    const ci = await t.request('GET', `${base}/gitlab_ci_ymls/Go`, { token: user.token });
    assert.deepEqual(Object.keys(ci.body), ['name', 'content']);
    const byPath = await t.request(
      'GET',
      `/api/v4/projects/${encodeURIComponent(secret.fullPath)}/templates/dockerfiles/Node`,
      { token: user.token },
    );
    assert.equal(byPath.status, 200, byPath.text);

    const hidden = await t.request('GET', `${base}/gitignores`, { token: stranger.token });
    assert.deepEqual([hidden.status, hidden.body], [404, { message: '404 Project Not Found' }]);
    assert.equal((await t.request('GET', `${base}/gitignores`)).status, 404);
    const anonymous = await t.request('GET', `/api/v4/projects/${open.id}/templates/gitignores/Rust`);
    assert.equal(anonymous.status, 200, anonymous.text);

    const missing = await t.request('GET', `${base}/gitignores/Cobol`, { token: user.token });
    assert.deepEqual([missing.status, missing.body], [404, { message: '404 Template Not Found' }]);
    const missingLicense = await t.request('GET', `${base}/licenses/nope`, { token: user.token });
    assert.deepEqual(missingLicense.body, { message: '404 Template Not Found' });
    const badType = await t.request('GET', `${base}/snippets`, { token: user.token });
    assert.deepEqual([badType.status, badType.body], [400, { error: 'type does not have a valid value' }]);
  });
});
