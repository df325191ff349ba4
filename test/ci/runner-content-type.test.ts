// Runners 1.7.0 and 1.7.1 compare the whole Content-Type header with `application/json`: every runner
// route answers exactly that on success and on every error (400, 403, 404, 413, 416, unknown routes,
// unparsable bodies), and a 204 carries no body at all.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startCiProject, type CiProject } from '../helpers/ci.ts';
import { RunnerClient, type Job, type Reply } from '../helpers/runner-client.ts';
import { makeZip } from '../helpers/zip.ts';

const REGISTRATION_TOKEN = 'content-type-runner-token';

describe('runner routes answer exactly application/json', () => {
  let ci: CiProject;
  let runner: RunnerClient;
  let job: Job;

  before(async () => {
    ci = await startCiProject(
      { LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN, LABRADOR_ARTIFACTS_MAX_BYTES: '2048' },
      'ctype',
    );
    runner = new RunnerClient(ci.base);
    assert.equal((await runner.register(REGISTRATION_TOKEN)).status, 201);
  });
  after(() => ci.close());

  function exactlyJson(reply: Reply, label: string): void {
    assert.equal(reply.headers.get('content-type'), 'application/json', `${label}: ${reply.status}`);
    assert.doesNotThrow(() => JSON.parse(reply.text), label);
  }

  it('on success, on 204 and on every error of every route', async () => {
    const empty = await runner.requestJobReply();
    assert.equal(empty.status, 204);
    assert.equal(empty.text, '');
    assert.equal(empty.headers.get('content-type'), null);

    await ci.push({
      '.gitlab-ci.yml': 'stages: [a, b]\none: {stage: a, script: x}\ntwo: {stage: b, script: y}\n',
    });
    job = (await runner.requestJob())!;
    const buildToken = { 'BUILD-TOKEN': job.token };
    const zip = await makeZip({ 'a.txt': 'a' });
    const form = (data: Buffer) => {
      const body = new FormData();
      body.append('file', new Blob([new Uint8Array(data)]), 'a.zip');
      return body;
    };
    const big = await makeZip({ 'big.txt': crypto.randomBytes(3000).toString('hex') });

    const cases: Array<[string, string, string, Parameters<RunnerClient['call']>[2], number]> = [
      ['register: wrong token', 'POST', 'runners/register.json', { json: { token: 'nope' } }, 403],
      ['register: no token', 'POST', 'runners/register', { json: {} }, 400],
      [
        'register: broken JSON',
        'POST',
        'runners/register.json',
        {
          headers: { 'Content-Type': 'application/json' },
          body: '{"token":',
        },
        400,
      ],
      ['builds/register: wrong token', 'POST', 'builds/register.json', { json: { token: 'nope' } }, 403],
      ['builds/register: no token', 'POST', 'builds/register.json', { json: {} }, 403],
      [
        'builds/register: unversioned runner',
        'POST',
        'builds/register.json',
        {
          json: { token: runner.token },
          headers: { 'User-Agent': 'curl/8' },
        },
        404,
      ],
      ['verify', 'PUT', 'builds/-1', { json: { token: runner.token } }, 404],
      [
        'update: wrong runner token',
        'PUT',
        `builds/${job.id}.json`,
        { json: { token: 'nope', state: 'running' } },
        403,
      ],
      [
        'update: unknown build',
        'PUT',
        'builds/999999',
        { json: { token: runner.token, state: 'running' } },
        404,
      ],
      [
        'update: running',
        'PUT',
        `builds/${job.id}.json`,
        { json: { token: runner.token, state: 'running' } },
        200,
      ],
      [
        'trace: piece',
        'PATCH',
        `builds/${job.id}/trace.txt`,
        {
          headers: { ...buildToken, 'Content-Type': 'text/plain', 'Content-Range': '0-3' },
          body: 'abc',
        },
        202,
      ],
      [
        'trace: wrong range',
        'PATCH',
        `builds/${job.id}/trace.txt`,
        {
          headers: { ...buildToken, 'Content-Type': 'text/plain', 'Content-Range': '0-3' },
          body: 'abc',
        },
        416,
      ],
      [
        'trace: no range',
        'PATCH',
        `builds/${job.id}/trace.txt`,
        {
          headers: { ...buildToken, 'Content-Type': 'text/plain' },
          body: 'abc',
        },
        400,
      ],
      [
        'trace: wrong build token',
        'PATCH',
        `builds/${job.id}/trace.txt`,
        {
          headers: { 'BUILD-TOKEN': 'nope', 'Content-Type': 'text/plain', 'Content-Range': '3-6' },
          body: 'abc',
        },
        403,
      ],
      [
        'trace: unknown build',
        'PATCH',
        'builds/999999/trace.txt',
        {
          headers: { ...buildToken, 'Content-Type': 'text/plain', 'Content-Range': '0-3' },
          body: 'abc',
        },
        404,
      ],
      [
        'artifacts: upload',
        'POST',
        `builds/${job.id}/artifacts`,
        { headers: buildToken, body: form(zip) },
        201,
      ],
      [
        'artifacts: too large',
        'POST',
        `builds/${job.id}/artifacts`,
        { headers: buildToken, body: form(big) },
        413,
      ],
      ['artifacts: no file', 'POST', `builds/${job.id}/artifacts`, { headers: buildToken, json: {} }, 400],
      [
        'artifacts: wrong token',
        'POST',
        `builds/${job.id}/artifacts`,
        { headers: { 'BUILD-TOKEN': 'nope' }, body: form(zip) },
        403,
      ],
      [
        'artifacts: download, wrong token',
        'GET',
        `builds/${job.id}/artifacts`,
        { headers: { 'BUILD-TOKEN': 'nope' } },
        403,
      ],
      ['artifacts: download, unknown build', 'GET', 'builds/999999/artifacts', { headers: buildToken }, 404],
      [
        'artifacts: delete, wrong token',
        'DELETE',
        `builds/${job.id}/artifacts`,
        { headers: { 'BUILD-TOKEN': 'nope' } },
        403,
      ],
      ['unknown route', 'GET', 'nothing/here', {}, 404],
      ['unknown method', 'PATCH', 'runners/register.json', { json: {} }, 404],
      [
        'update: success',
        'PUT',
        `builds/${job.id}.json`,
        { json: { token: runner.token, state: 'success', trace: 'abc' } },
        200,
      ],
      [
        'artifacts: upload after the end',
        'POST',
        `builds/${job.id}/artifacts`,
        { headers: buildToken, body: form(zip) },
        403,
      ],
      ['artifacts: delete', 'DELETE', `builds/${job.id}/artifacts`, { headers: buildToken }, 200],
      ['unregister: wrong token', 'DELETE', 'runners/delete', { json: { token: 'nope' } }, 403],
      ['unregister: no token', 'DELETE', 'runners/delete', { json: {} }, 400],
    ];
    for (const [label, method, path, options, status] of cases) {
      const reply = await runner.call(method, path, options);
      assert.equal(reply.status, status, `${label}: ${reply.text}`);
      exactlyJson(reply, label);
    }
    const next = await runner.requestJobReply();
    assert.equal(next.status, 201);
    exactlyJson(next, 'builds/register: a job');
    const removed = await runner.unregister();
    assert.equal(removed.status, 200);
    exactlyJson(removed, 'unregister');
  });
});
