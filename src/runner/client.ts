// The runner's side of GitLab 8.x's runner protocol, over HTTP only (it works against any Labrador, or
// any GitLab 8.x): `<url>/ci/api/v1/`, JSON bodies carrying the runner token, per-build calls with the
// build's token in the BUILD-TOKEN header, trace pieces with Content-Range, artifacts as a multipart `file`.
import fs from 'node:fs';
import os from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Job } from './job.ts';
import { RUNNER_NAME, runnerVersion } from './version.ts';

/** The server's answer when it has no use for us any more (token unknown, runner deleted). */
export class RunnerRejectedError extends Error {}

/** What a PATCH of the trace told us. */
export type TraceAnswer =
  | { kind: 'ok'; canceled: boolean }
  | { kind: 'range'; offset: number; canceled: boolean }
  | { kind: 'not-found' }
  | { kind: 'aborted' }
  | { kind: 'failed'; detail: string };

/** `info` of every runner call: who we are. */
function info() {
  return {
    name: RUNNER_NAME,
    version: runnerVersion,
    revision: 'labrador',
    platform: os.platform(),
    architecture: os.arch(),
  };
}

/** gitlab-ci-multi-runner's User-Agent shape, so the server answers "nothing to do" with 204. */
function userAgent(): string {
  return `gitlab-ci-multi-runner ${runnerVersion} (labrador; node ${process.versions.node}; ${os.platform()}/${os.arch()})`;
}

export class ProtocolClient {
  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs = 30_000,
  ) {}

  private url(path: string): string {
    return `${this.baseUrl.replace(/\/+$/, '')}/ci/api/v1/${path}`;
  }

  private async request(
    method: string,
    path: string,
    options: { json?: unknown; headers?: Record<string, string>; body?: BodyInit; timeoutMs?: number } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { 'User-Agent': userAgent(), ...options.headers };
    let body = options.body;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers.Accept = 'application/json';
      body = JSON.stringify(options.json);
    }
    return fetch(this.url(path), {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs),
    });
  }

  /** POST runners/register.json: the runner's id and token. */
  async register(
    registrationToken: string,
    description: string,
    tagList: string | undefined,
  ): Promise<{ id: number; token: string }> {
    const response = await this.request('POST', 'runners/register.json', {
      json: {
        token: registrationToken,
        description,
        info: info(),
        ...(tagList ? { tag_list: tagList } : {}),
      },
    });
    const text = await response.text();
    if (response.status === 403) {
      throw new RunnerRejectedError('the registration token was refused (403): check --registration-token');
    }
    if (response.status !== 201) {
      throw new Error(`registering failed: ${response.status} ${text.slice(0, 200)}`);
    }
    const body = JSON.parse(text) as { id: number; token: string };
    return { id: body.id, token: body.token };
  }

  /** POST builds/register.json: a job, or null when there is nothing to do. */
  async requestJob(token: string): Promise<Job | null> {
    const response = await this.request('POST', 'builds/register.json', { json: { token, info: info() } });
    const text = await response.text();
    if (response.status === 201) return JSON.parse(text) as Job;
    if (response.status === 204 || response.status === 404) return null;
    if (response.status === 403) throw new RunnerRejectedError('the server does not know this runner (403)');
    throw new Error(`asking for a build failed: ${response.status} ${text.slice(0, 200)}`);
  }

  /** PUT builds/:id.json: the state, and the whole trace when given. */
  async updateBuild(
    token: string,
    buildId: number,
    state: 'running' | 'success' | 'failed',
    trace?: string,
  ): Promise<'ok' | 'not-found' | 'failed'> {
    const response = await this.request('PUT', `builds/${buildId}.json`, {
      json: { token, state, ...(trace === undefined ? {} : { trace }), info: info() },
    });
    await response.arrayBuffer();
    if (response.status === 200) return 'ok';
    if (response.status === 404 || response.status === 403) return 'not-found';
    return 'failed';
  }

  /** PATCH builds/:id/trace.txt: `piece` starts at byte `offset` of the trace. */
  async patchTrace(job: Pick<Job, 'id' | 'token'>, offset: number, piece: Buffer): Promise<TraceAnswer> {
    const response = await this.request('PATCH', `builds/${job.id}/trace.txt`, {
      headers: {
        'Content-Type': 'text/plain',
        'Content-Range': `${offset}-${offset + piece.length}`,
        'BUILD-TOKEN': job.token,
      },
      body: new Uint8Array(piece),
    });
    await response.arrayBuffer();
    const canceled = response.headers.get('build-status') === 'canceled';
    if (response.status === 202) return { kind: 'ok', canceled };
    if (response.status === 416) {
      // The server keeps bytes 0-N: the next piece starts at N.
      const stored = Number((response.headers.get('range') ?? '').split('-')[1]);
      if (Number.isSafeInteger(stored)) return { kind: 'range', offset: stored, canceled };
      return { kind: 'failed', detail: 'a 416 answer without a usable Range header' };
    }
    if (response.status === 404) return { kind: 'not-found' };
    if (response.status === 403) return { kind: 'aborted' };
    return { kind: 'failed', detail: `${response.status}` };
  }

  /** POST builds/:id/artifacts (multipart `file`, `expire_in` in the query). */
  async uploadArtifacts(
    job: Pick<Job, 'id' | 'token'>,
    file: string,
    filename: string,
    expireIn: string | undefined,
  ): Promise<void> {
    const form = new FormData();
    form.append('file', await fs.openAsBlob(file, { type: 'application/octet-stream' }), filename);
    const query = expireIn ? `?expire_in=${encodeURIComponent(expireIn)}` : '';
    const response = await this.request('POST', `builds/${job.id}/artifacts${query}`, {
      headers: { 'BUILD-TOKEN': job.token },
      body: form,
      timeoutMs: 30 * 60_000,
    });
    const text = await response.text();
    if (response.status !== 201) {
      throw new Error(`the server refused the artifacts (${response.status} ${text.slice(0, 200)})`);
    }
  }

  /** GET builds/:id/artifacts into `file`, with the token the server accepts for it. */
  async downloadArtifacts(buildId: number, token: string, file: string): Promise<void> {
    const response = await this.request('GET', `builds/${buildId}/artifacts`, {
      headers: { 'BUILD-TOKEN': token },
      timeoutMs: 30 * 60_000,
    });
    if (response.status !== 200 || !response.body) {
      await response.arrayBuffer().catch(() => undefined);
      throw new Error(`downloading the artifacts of build ${buildId} failed (${response.status})`);
    }
    await pipeline(Readable.fromWeb(response.body as never), fs.createWriteStream(file));
  }
}
