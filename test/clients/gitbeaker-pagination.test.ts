// @gitbeaker/rest 43's list handling against a listening Labrador: `pagination: 'keyset'` follows the
// `next` Link GitLab's keyset pager sets on GET /projects ordered by id (id_after / id_before), stops at
// the page without one, and refuses another order with a 405 whose `error` gitbeaker reports;
// `maxPages` × `perPage` bounds an offset walk; id_after / id_before filter an offset list too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Gitlab } from '@gitbeaker/rest';
import { refusal } from './gitbeaker-refusal.ts';
import { startClientApp, type ClientApp } from './client-app.ts';

describe('@gitbeaker/rest 43: keyset and bounded pagination', () => {
  let app: ClientApp;
  let api: InstanceType<typeof Gitlab>;
  const ids: number[] = [];

  before(async () => {
    app = await startClientApp();
    api = new Gitlab({ host: app.url, token: app.t.rootToken });
    for (let i = 0; i < 5; i += 1) ids.push((await api.Projects.create({ name: `keyset-${i}` })).id);
  });
  after(() => app.t.close());

  it('walks projects by keyset, ascending and descending, two a page', async () => {
    const up = await api.Projects.all({ pagination: 'keyset', orderBy: 'id', sort: 'asc', perPage: 2 });
    assert.deepEqual(
      up.map((project) => project.id),
      ids,
    );
    const down = await api.Projects.all({
      pagination: 'keyset',
      orderBy: 'id',
      sort: 'desc',
      perPage: 2,
      simple: true,
    });
    assert.deepEqual(
      down.map((project) => project.id),
      [...ids].reverse(),
    );
  });

  it('answers a keyset page with a next link and no counts', async () => {
    const url = `${app.url}/api/v4/projects?pagination=keyset&order_by=id&sort=asc&per_page=3`;
    const first = await fetch(url, { headers: { 'PRIVATE-TOKEN': app.t.rootToken } });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-total'), null);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    assert.ok(next, 'a next link');
    assert.match(next, new RegExp(`id_after=${ids[2]}`));
    const second = await fetch(next, { headers: { 'PRIVATE-TOKEN': app.t.rootToken } });
    assert.deepEqual(
      ((await second.json()) as { id: number }[]).map((project) => project.id),
      ids.slice(3),
    );
  });

  it('refuses keyset pages in any order but id', async () => {
    const refused = await refusal(
      api.Projects.all({ pagination: 'keyset', orderBy: 'name', sort: 'asc', perPage: 2 }),
    );
    assert.deepEqual(refused, {
      status: 405,
      description: 'Keyset pagination is not yet available for this type of request',
    });
    assert.equal((await refusal(api.Projects.all({ pagination: 'keyset', perPage: 2 }))).status, 405);
  });

  it('stops an offset walk at maxPages and filters by id_after / id_before', async () => {
    const bounded = await api.Projects.all({ pagination: 'offset', maxPages: 2, perPage: 2, simple: true });
    assert.equal(bounded.length, 4);
    const between = await api.Projects.all({ idAfter: ids[0], idBefore: ids[4], orderBy: 'id', sort: 'asc' });
    assert.deepEqual(
      between.map((project) => project.id),
      ids.slice(1, 4),
    );
    const { paginationInfo } = await api.Projects.all({
      idAfter: ids[1],
      pagination: 'offset',
      showExpanded: true,
    });
    assert.equal(paginationInfo.total, 3);
  });

  it('sends offset pages past 50,000 rows to keyset', async () => {
    const refused = await refusal(api.Projects.all({ pagination: 'offset', page: 501, perPage: 100 }));
    assert.equal(refused.status, 405);
    assert.match(refused.description, /^Offset pagination has a maximum allowed offset of 50000 /);
  });
});
