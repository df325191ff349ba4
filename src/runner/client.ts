// The runner's side of the v4 runner protocol (what gitlab-runner 9.0 and later speak), over HTTP only: it
// works against any Labrador, or any GitLab since 9.0. `<url>/api/v4/`: JSON bodies carrying the runner
// token for runners and jobs/request; every per-job call with the job's token in the JOB-TOKEN header;
// trace pieces with `Content-Range: start-end` (end inclusive); artifacts as a multipart `file`. A job that
// no longer runs (cancelled, finished elsewhere) is answered 403 with `Job-Status`: the build stops.
import fs from 'node:fs';
import os from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { jobFromPayload, type Job, type JobPayloadV4 } from './job.ts';
import { RUNNER_NAME, runnerVersion } from './version.ts';

/** The server's answer when it has no use for us any more (token unknown, runner deleted). */
export class RunnerRejectedError extends Error {}

/** What a PATCH of the trace told us. */
export type TraceAnswer =
  { kind: 'ok' } | { kind: 'range'; offset: number } | { kind: 'stop' } | { kind: 'failed'; detail: string };

/** `info` of every runner call: who we are. */
function info() {
  return {
    name: RUNNER_NAME,
    version: runnerVersion,
    revision: 'labrador',
    platform: os.platform(),
    architecture: os.arch(),
    executor: 'shell',
    shell: 'bash',
    features: { variables: true, artifacts: true, cache: true, cancelable: true },
  };
}

function userAgent(): string {
  return `${RUNNER_NAME} ${runnerVersion} (labrador; node ${process.versions.node}; ${os.platform()}/${os.arch()})`;
}

type JobCredentials = Pick<Job, 'id' | 'token'>;

export class ProtocolClient {
  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs = 30_000,
  ) {}

  private url(path: string): string {
    return `${this.baseUrl.replace(/\/+$/, '')}/api/v4/${path}`;
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

  /** POST runners: the runner's id and token. */
  async register(
    registrationToken: string,
    description: string,
    tagList: string | undefined,
  ): Promise<{ id: number; token: string }> {
    const response = await this.request('POST', 'runners', {
      json: {
        token: registrationToken,
        description,
        info: info(),
        run_untagged: true,
        locked: false,
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

  /** POST jobs/request: a job, or null when there is nothing to do (204). */
  async requestJob(token: string): Promise<Job | null> {
    const response = await this.request('POST', 'jobs/request', { json: { token, info: info() } });
    const text = await response.text();
    if (response.status === 201) return jobFromPayload(JSON.parse(text) as JobPayloadV4);
    if (response.status === 204) return null;
    if (response.status === 403) throw new RunnerRejectedError('the server does not know this runner (403)');
    throw new Error(`asking for a job failed: ${response.status} ${text.slice(0, 200)}`);
  }

  /** PUT jobs/:id: the state; 'stop' when the job no longer runs on the server (403, 404). */
  async updateJob(
    job: JobCredentials,
    state: 'running' | 'success' | 'failed',
    exitCode?: number,
    failureReason = 'script_failure',
  ): Promise<'ok' | 'stop' | 'failed'> {
    const response = await this.request('PUT', `jobs/${job.id}`, {
      headers: { 'JOB-TOKEN': job.token },
      json: {
        token: job.token,
        state,
        info: info(),
        ...(state === 'failed' ? { failure_reason: failureReason } : {}),
        ...(exitCode === undefined ? {} : { exit_code: exitCode }),
      },
    });
    await response.arrayBuffer();
    if (response.status === 200) return 'ok';
    if (response.status === 403 || response.status === 404) return 'stop';
    return 'failed';
  }

  /** PATCH jobs/:id/trace: `piece` starts at byte `offset` of the trace. */
  async patchTrace(job: JobCredentials, offset: number, piece: Buffer): Promise<TraceAnswer> {
    const response = await this.request('PATCH', `jobs/${job.id}/trace`, {
      headers: {
        'Content-Type': 'text/plain',
        'Content-Range': `${offset}-${offset + piece.length - 1}`,
        'JOB-TOKEN': job.token,
      },
      body: new Uint8Array(piece),
    });
    await response.arrayBuffer();
    if (response.status === 202) {
      return response.headers.get('job-status') === 'canceled' ? { kind: 'stop' } : { kind: 'ok' };
    }
    if (response.status === 416) {
      // The server keeps bytes 0-N: the next piece starts at N.
      const stored = Number((response.headers.get('range') ?? '').split('-')[1]);
      if (Number.isSafeInteger(stored)) return { kind: 'range', offset: stored };
      return { kind: 'failed', detail: 'a 416 answer without a usable Range header' };
    }
    if (response.status === 403 || response.status === 404) return { kind: 'stop' };
    return { kind: 'failed', detail: `${response.status}` };
  }

  /** POST jobs/:id/artifacts (multipart `file`; artifact_format, artifact_type, expire_in in the query). */
  async uploadArtifacts(
    job: JobCredentials,
    file: string,
    filename: string,
    expireIn: string | undefined,
  ): Promise<void> {
    const form = new FormData();
    form.append('file', await fs.openAsBlob(file, { type: 'application/octet-stream' }), filename);
    const query = new URLSearchParams({ artifact_format: 'zip', artifact_type: 'archive' });
    if (expireIn) query.set('expire_in', expireIn);
    const response = await this.request('POST', `jobs/${job.id}/artifacts?${query}`, {
      headers: { 'JOB-TOKEN': job.token },
      body: form,
      timeoutMs: 30 * 60_000,
    });
    const text = await response.text();
    if (response.status !== 201) {
      throw new Error(`the server refused the artifacts (${response.status} ${text.slice(0, 200)})`);
    }
  }

  /** GET jobs/:id/artifacts into `file`, with the token the job's payload gave for it. */
  async downloadArtifacts(jobId: number, token: string, file: string): Promise<void> {
    const response = await this.request('GET', `jobs/${jobId}/artifacts`, {
      headers: { 'JOB-TOKEN': token },
      timeoutMs: 30 * 60_000,
    });
    if (response.status !== 200 || !response.body) {
      await response.arrayBuffer().catch(() => undefined);
      throw new Error(`downloading the artifacts of job ${jobId} failed (${response.status})`);
    }
    await pipeline(Readable.fromWeb(response.body as never), fs.createWriteStream(file));
  }
}
