// A runner for tests, written from the description of GitLab 8.x's runner protocol (what
// gitlab-ci-multi-runner 1.7 sends and how it reads the answers), not from Labrador's code: the base is
// `<url>/ci/api/v1/`, JSON bodies with the runner token, per-build calls with the BUILD-TOKEN header,
// trace pieces with Content-Range, artifacts as a multipart `file`.
import assert from 'node:assert/strict';

export const RUNNER_USER_AGENT = 'gitlab-ci-multi-runner 1.7.0 (1-7-stable; go1.6.3; linux/amd64)';

const INFO = {
  name: 'gitlab-ci-multi-runner',
  version: '1.7.0',
  revision: 'c66b00d',
  platform: 'linux',
  architecture: 'amd64',
};

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** A job as builds/register hands it out (the fields runner 1.7 reads, and more). */
export interface Job {
  id: number;
  token: string;
  name: string;
  stage: string;
  ref: string;
  sha: string;
  repo_url: string;
  commands: string;
  variables: Array<{ key: string; value: string; public: boolean }>;
  options: Record<string, any>;
  depends_on_builds: Array<{
    id: number;
    name: string;
    token: string;
    artifacts_file?: { filename: string; size: number };
  }>;
  [key: string]: unknown;
}

export class RunnerClient {
  token: string | undefined;
  id: number | undefined;

  constructor(readonly baseUrl: string) {}

  private url(path: string): string {
    return `${this.baseUrl.replace(/\/+$/, '')}/ci/api/v1/${path}`;
  }

  async call(
    method: string,
    path: string,
    options: { json?: unknown; headers?: Record<string, string>; body?: BodyInit } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { 'User-Agent': RUNNER_USER_AGENT, ...options.headers };
    let body = options.body;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers.Accept = 'application/json';
      body = JSON.stringify(options.json);
    }
    const response = await fetch(this.url(path), { method, headers, body, duplex: 'half' } as RequestInit);
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  /** runners/register.json with a registration token; keeps the runner token it gets. */
  async register(registrationToken: string, extra: Record<string, unknown> = {}): Promise<Reply> {
    const reply = await this.call('POST', 'runners/register.json', {
      json: { token: registrationToken, description: 'test runner', info: INFO, ...extra },
    });
    if (reply.status === 201) {
      // Runner 1.7.0 decodes the answer only when the content type is exactly this.
      assert.equal(reply.headers.get('content-type'), 'application/json');
      this.token = reply.body.token;
      this.id = reply.body.id;
    }
    return reply;
  }

  /** The runner's "is alive" check: PUT builds/-1 answers 404 while the runner exists. */
  verify(): Promise<Reply> {
    return this.call('PUT', 'builds/-1', { json: { token: this.token } });
  }

  unregister(): Promise<Reply> {
    return this.call('DELETE', 'runners/delete', { json: { token: this.token } });
  }

  requestJobReply(): Promise<Reply> {
    return this.call('POST', 'builds/register.json', { json: { token: this.token, info: INFO } });
  }

  /** A job, or null when there is nothing to do (204 or 404). */
  async requestJob(): Promise<Job | null> {
    const reply = await this.requestJobReply();
    if (reply.status === 204 || reply.status === 404) return null;
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.headers.get('content-type'), 'application/json');
    return reply.body as Job;
  }

  update(job: { id: number }, state: string, trace?: string): Promise<Reply> {
    return this.call('PUT', `builds/${job.id}.json`, {
      json: { token: this.token, state, trace, info: INFO },
    });
  }

  /** PATCH builds/:id/trace.txt: one piece of trace starting at `offset`. */
  patchTrace(job: { id: number; token: string }, offset: number, piece: string): Promise<Reply> {
    const bytes = Buffer.from(piece);
    return this.call('PATCH', `builds/${job.id}/trace.txt`, {
      headers: {
        'Content-Type': 'text/plain',
        'Content-Range': `${offset}-${offset + bytes.length}`,
        'BUILD-TOKEN': job.token,
      },
      body: bytes,
    });
  }

  uploadArtifacts(
    job: { id: number; token: string },
    zip: Buffer,
    filename: string,
    expireIn?: string,
  ): Promise<Reply> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/octet-stream' }), filename);
    const query = expireIn ? `?expire_in=${encodeURIComponent(expireIn)}` : '?';
    return this.call('POST', `builds/${job.id}/artifacts${query}`, {
      headers: { 'BUILD-TOKEN': job.token },
      body: form,
    });
  }

  /** GET builds/:id/artifacts (runner 1.7 sends no User-Agent on this one). */
  async downloadArtifacts(
    buildId: number,
    token: string,
  ): Promise<{ status: number; headers: Headers; body: Buffer }> {
    const response = await fetch(this.url(`builds/${buildId}/artifacts`), {
      headers: { 'BUILD-TOKEN': token },
    });
    return {
      status: response.status,
      headers: response.headers,
      body: Buffer.from(await response.arrayBuffer()),
    };
  }
}

/** Polls `check` until it returns something truthy, failing after `timeoutMs` (no fixed sleeps). */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
