// A stand-in for gitlab-runner 17.11, written from its source (gitlabhq/gitlab-runner v17.11.0,
// network/gitlab.go, network/patch_response.go, network/remote_job_state_response.go, common/network.go),
// not from Labrador's code: each request is sent as the runner sends it, with the file and line beside it.
import assert from 'node:assert/strict';

/** common/network.go VersionInfo, as getRunnerVersion fills it (network/gitlab.go:95). */
export const RUNNER17_INFO = {
  name: 'gitlab-runner',
  version: '17.11.0',
  revision: '0f67ff19',
  platform: 'linux',
  architecture: 'amd64',
  executor: 'shell',
  shell: 'bash',
  features: {
    variables: true,
    artifacts: true,
    cache: true,
    upload_multiple_artifacts: true,
    cancelable: true,
  },
};

/** network/client.go sets this User-Agent on every call. */
export const RUNNER17_USER_AGENT = 'gitlab-runner 17.11.0 (17-11-stable; go1.23.6; linux/amd64)';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface V4Job {
  id: number;
  token: string;
  job_info: { id: number; name: string; stage: string; project_id: number; project_name: string };
  git_info: {
    repo_url: string;
    ref: string;
    sha: string;
    before_sha: string;
    ref_type: string;
    refspecs: string[];
    depth: number;
  };
  variables: Array<{ key: string; value: string; public: boolean; masked: boolean }>;
  steps: Array<{ name: string; script: string[]; timeout: number; when: string; allow_failure: boolean }>;
  dependencies: Array<{
    id: number;
    name: string;
    token: string;
    artifacts_file?: { filename: string; size: number };
  }>;
  [key: string]: any;
}

export class Runner17 {
  token: string | undefined;
  id: number | undefined;

  constructor(readonly baseUrl: string) {}

  async call(
    method: string,
    path: string,
    options: { json?: unknown; headers?: Record<string, string>; body?: BodyInit } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { 'User-Agent': RUNNER17_USER_AGENT, ...options.headers };
    let body = options.body;
    if (options.json !== undefined) {
      // network/client.go doJSON: JSON body, Accept application/json.
      headers['Content-Type'] = 'application/json';
      headers.Accept = 'application/json';
      body = JSON.stringify(options.json);
    }
    const url = `${this.baseUrl.replace(/\/+$/, '')}/api/v4/${path}`;
    const response = await fetch(url, { method, headers, body, duplex: 'half' } as RequestInit);
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  /**
   * network/gitlab.go:308 RegisterRunner: POST runners, RUNNER-TOKEN header and `token` in the body,
   * RegisterRunnerParameters (common/network.go:214: tag_list comma-separated, run_untagged, locked, paused).
   */
  async register(registrationToken: string, extra: Record<string, unknown> = {}): Promise<Reply> {
    const reply = await this.call('POST', 'runners', {
      headers: { 'RUNNER-TOKEN': registrationToken },
      json: {
        description: 'runner 17',
        run_untagged: true,
        locked: false,
        paused: false,
        info: RUNNER17_INFO,
        token: registrationToken,
        ...extra,
      },
    });
    if (reply.status === 201) {
      this.token = reply.body.token;
      this.id = reply.body.id;
    }
    return reply;
  }

  /** network/gitlab.go:348 VerifyRunner: POST runners/verify with token and system_id. */
  verify(token = this.token): Promise<Reply> {
    return this.call('POST', 'runners/verify', {
      headers: token ? { 'RUNNER-TOKEN': token } : {},
      json: { token, system_id: 's_0123456789ab' },
    });
  }

  /** network/gitlab.go:405 UnregisterRunner: DELETE runners with the token in the body; 204 expected. */
  unregister(): Promise<Reply> {
    return this.call('DELETE', 'runners', {
      headers: { 'RUNNER-TOKEN': this.token! },
      json: { token: this.token },
    });
  }

  /** network/gitlab.go:486 resetToken: POST runners/reset_authentication_token {token}; 201 expected. */
  resetToken(): Promise<Reply> {
    return this.call('POST', 'runners/reset_authentication_token', { json: { token: this.token } });
  }

  /** network/gitlab.go:555 RequestJob: POST jobs/request, common/network.go:279 JobRequest. */
  requestJobReply(lastUpdate = ''): Promise<Reply> {
    return this.call('POST', 'jobs/request', {
      headers: { 'RUNNER-TOKEN': this.token! },
      json: {
        info: RUNNER17_INFO,
        token: this.token,
        system_id: 's_0123456789ab',
        ...(lastUpdate ? { last_update: lastUpdate } : {}),
      },
    });
  }

  /** 201: the job; 204: none (gitlab.go:589, 607). */
  async requestJob(): Promise<V4Job | null> {
    const reply = await this.requestJobReply();
    if (reply.status === 204) return null;
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.headers.get('content-type'), 'application/json');
    return reply.body as V4Job;
  }

  /**
   * network/gitlab.go:619 UpdateJob: PUT jobs/:id, JOB-TOKEN header, common/network.go:1012 UpdateJobRequest
   * (token, state, failure_reason, checksum, output {checksum, bytesize}, exit_code).
   */
  update(
    job: { id: number; token: string },
    state: string,
    extra: Record<string, unknown> = {},
  ): Promise<Reply> {
    return this.call('PUT', `jobs/${job.id}`, {
      headers: { 'JOB-TOKEN': job.token },
      json: {
        info: RUNNER17_INFO,
        token: job.token,
        state,
        output: { checksum: 'crc32:00000000', bytesize: 0 },
        ...extra,
      },
    });
  }

  /**
   * network/gitlab.go:713 PatchTrace: PATCH jobs/:id/trace?debug_trace=false, text/plain, JOB-TOKEN and
   * `Content-Range: start-(end-1)` (gitlab.go:731, the end inclusive).
   */
  patchTrace(job: { id: number; token: string }, offset: number, piece: string): Promise<Reply> {
    const bytes = Buffer.from(piece);
    return this.call('PATCH', `jobs/${job.id}/trace?debug_trace=false`, {
      headers: {
        'Content-Type': 'text/plain',
        'Content-Range': `${offset}-${offset + bytes.length - 1}`,
        'JOB-TOKEN': job.token,
      },
      body: bytes,
    });
  }

  /**
   * network/gitlab.go:907 UploadRawArtifacts: POST jobs/:id/artifacts?artifact_format=zip&artifact_type=
   * archive&expire_in=…, multipart `file` (gitlab.go:832 createArtifactsContentProvider), JOB-TOKEN.
   */
  uploadArtifacts(
    job: { id: number; token: string },
    zip: Buffer,
    query: Record<string, string> = { artifact_format: 'zip', artifact_type: 'archive' },
    filename = 'artifacts.zip',
  ): Promise<Reply> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/octet-stream' }), filename);
    return this.call('POST', `jobs/${job.id}/artifacts?${new URLSearchParams(query)}`, {
      headers: { 'JOB-TOKEN': job.token },
      body: form,
    });
  }

  /** network/gitlab.go:1032 DownloadArtifacts: GET jobs/:id/artifacts?direct_download=true, JOB-TOKEN. */
  async downloadArtifacts(
    id: number,
    token: string,
  ): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const response = await fetch(
      `${this.baseUrl.replace(/\/+$/, '')}/api/v4/jobs/${id}/artifacts?direct_download=true`,
      { headers: { 'User-Agent': RUNNER17_USER_AGENT, 'JOB-TOKEN': token } },
    );
    return {
      status: response.status,
      headers: response.headers,
      bytes: Buffer.from(await response.arrayBuffer()),
    };
  }
}
