// One build on the shell executor, from taking it to reporting its end: a fresh work dir; clone over
// HTTP and check out the sha; the project's cache and the dependencies' artifacts unpacked; before_script
// + script in one bash; after_script in another whatever the script did; the cache kept on success; the
// artifacts uploaded as `artifacts.when` says; the whole trace sent with the final state. The trace
// streams meanwhile; a cancel (from the trace answers), the build's timeout or the runner stopping ends
// the current step's process group at once.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractZip, selectFiles, writeZip } from './archive.ts';
import type { ProtocolClient } from './client.ts';
import {
  afterScript,
  artifactsOptions,
  cacheOptions,
  commandLines,
  containerOptions,
  expandVariables,
  type CacheOptions,
  type Job,
  type JobVariable,
} from './job.ts';
import { endGroup, processStartTime, startStep, type StepResult } from './process-group.ts';
import { bashScript, buildEnvironment } from './shell.ts';
import type { Sandbox } from './sandbox.ts';
import type { StateDir } from './state.ts';
import { BuildTrace, TraceStreamer } from './trace.ts';
import { RUNNER_NAME, runnerVersion } from './version.ts';

export interface BuildSettings {
  client: ProtocolClient;
  runnerToken: string;
  runnerId: number;
  description: string;
  state: StateDir;
  buildsDir: string;
  /** Replaces scheme, host and port of the job's repo_url (when the server's external URL is not reachable from here). */
  cloneUrl: string | undefined;
  traceLimit: number;
  traceIntervalMs: number;
  /** Where the steps run (bubblewrap, or the runner's own view of the machine). */
  sandbox: Sandbox;
}

export type BuildOutcome = 'success' | 'failed' | 'canceled';

/** Why a build stopped before its script finished by itself. */
type Interruption = 'canceled' | 'timeout' | 'stopping';

const DEFAULT_TIMEOUT_S = 3600;
const AFTER_SCRIPT_TIMEOUT_MS = 5 * 60_000;

class Interrupted extends Error {
  constructor(readonly why: Interruption) {
    super(why);
  }
}

export class BuildRun {
  readonly trace: BuildTrace;
  private readonly streamer: TraceStreamer;
  private interruption: Interruption | undefined;
  /** The script's exit code, sent with a failure (allow_failure: exit_codes and retry read it). */
  private exitCode: number | undefined;
  private currentPgid: number | undefined;
  private readonly projectDir: string;

  constructor(
    readonly job: Job,
    private readonly settings: BuildSettings,
  ) {
    this.trace = new BuildTrace(settings.traceLimit);
    this.streamer = new TraceStreamer(settings.client, job, this.trace, settings.traceIntervalMs, () =>
      this.interrupt('canceled'),
    );
    this.projectDir = path.join(settings.buildsDir, workDirName(job.id));
  }

  /** Ends the build early: the running step's process group gets SIGTERM, then SIGKILL. */
  interrupt(why: Interruption): void {
    if (this.interruption) return;
    this.interruption = why;
    if (this.currentPgid !== undefined) void endGroup(this.currentPgid);
  }

  async run(): Promise<BuildOutcome> {
    const { job, settings } = this;
    settings.state.record({ buildId: job.id, token: job.token });
    this.streamer.start();
    const timeoutS = job.timeout && job.timeout > 0 ? job.timeout : DEFAULT_TIMEOUT_S;
    const timer = setTimeout(() => this.interrupt('timeout'), timeoutS * 1000);
    let failure: string | undefined;
    try {
      failure = await this.steps();
    } catch (error) {
      if (!(error instanceof Interrupted)) failure = (error as Error).message;
    } finally {
      clearTimeout(timer);
    }
    if (this.interruption === 'timeout') failure = `execution took longer than ${timeoutS} seconds`;
    if (this.interruption === 'stopping') failure = 'the runner stopped during the build';
    await this.cleanUp();
    if (this.interruption === 'canceled') {
      await this.streamer.stop();
      settings.state.forget(job.id);
      return 'canceled';
    }
    if (failure === undefined) this.trace.notice('Build succeeded');
    else this.trace.error(`ERROR: Build failed: ${failure}`);
    const outcome = failure === undefined ? 'success' : 'failed';
    // v4 has no whole-trace update: every byte goes by PATCH before the final state.
    await this.streamer.stop();
    await this.streamer.flush();
    await this.report(outcome);
    settings.state.forget(job.id);
    return outcome;
  }

  /** The steps; answers why the build failed, undefined when it succeeded. */
  private async steps(): Promise<string | undefined> {
    const { job, settings } = this;
    this.trace.write(
      `Running with ${RUNNER_NAME} ${runnerVersion} on ${settings.description} (#${settings.runnerId})\n`,
    );
    this.trace.notice(
      settings.sandbox.mode === 'bwrap'
        ? 'Using Shell executor in a bubblewrap sandbox...'
        : 'Using Shell executor without a sandbox...',
    );
    const { image, services } = containerOptions(job);
    if (image)
      this.trace.warning(`The shell executor ignores the image (${image}); the build runs on this machine.`);
    if (services.length > 0) {
      this.trace.warning(`The shell executor ignores services (${services.join(', ')}); none are started.`);
    }
    this.trace.write(`Running on ${os.hostname()}...\n`);
    const env = this.environment();

    fs.mkdirSync(this.projectDir, { recursive: true });
    this.trace.notice('Cloning repository...');
    const gitEnv = { ...env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true' };
    const clone = await this.step(
      'git',
      // The URL carries the build's token: no credential helper of the user's may store it.
      ['-c', 'credential.helper=', 'clone', '--no-checkout', this.repoUrl(), this.projectDir],
      gitEnv,
      // Any dir that exists inside the sandbox too; the clone goes to the (bound) work dir.
      '/',
    );
    if (clone.code !== 0) return 'cloning the repository failed';
    this.trace.notice(`Checking out ${job.sha.slice(0, 8)} as ${job.ref}...`);
    const checkout = await this.step('git', ['checkout', '-f', '-q', job.sha], gitEnv);
    if (checkout.code !== 0) return `checking out ${job.sha} failed`;

    const cache = cacheOptions(job);
    const cacheFile = cache ? this.cacheFile(cache) : undefined;
    if (cache && cacheFile) await this.restoreCache(cacheFile);
    for (const dependency of job.depends_on_builds) {
      if (!dependency.artifacts_file) continue;
      this.trace.notice(`Downloading artifacts for ${dependency.name} (${dependency.id})...`);
      const file = path.join(
        settings.buildsDir,
        `${path.basename(this.projectDir)}-dependency-${dependency.id}.zip`,
      );
      try {
        await settings.client.downloadArtifacts(dependency.id, dependency.token, file);
        await extractZip(file, this.projectDir);
      } catch (error) {
        return (error as Error).message;
      } finally {
        fs.rmSync(file, { force: true });
      }
    }
    this.throwIfInterrupted();

    const script = await this.script(commandLines(job.commands), env, 0);
    if (script.code !== null) this.exitCode = script.code;
    let failure = script.code === 0 ? undefined : exitFailure(script);
    this.throwIfInterrupted();
    const after = afterScript(job);
    if (after.length > 0) {
      this.trace.notice('Running after script...');
      const result = await this.script(after, env, AFTER_SCRIPT_TIMEOUT_MS);
      if (result.code !== 0) this.trace.warning(`after_script ${exitFailure(result)}`);
      this.throwIfInterrupted();
    }
    if (failure === undefined && cache && cacheFile) await this.saveCache(cache, cacheFile);
    const artifacts = artifactsOptions(job);
    if (artifacts) {
      const wanted =
        artifacts.when === 'always' || (artifacts.when === 'on_success') === (failure === undefined);
      if (wanted) {
        try {
          await this.uploadArtifacts(
            artifacts.name,
            artifacts.paths,
            artifacts.untracked,
            artifacts.expireIn,
          );
        } catch (error) {
          this.trace.error(`Uploading artifacts failed: ${(error as Error).message}`);
          failure ??= 'uploading the artifacts failed';
        }
      }
    }
    return failure;
  }

  private throwIfInterrupted(): void {
    if (this.interruption) throw new Interrupted(this.interruption);
  }

  /** The build's environment: what gitlab-runner added, then the job's variables. */
  private environment(): NodeJS.ProcessEnv {
    const own: JobVariable[] = [
      { key: 'CI', value: 'true', public: true },
      { key: 'CI_SERVER', value: 'yes', public: true },
      { key: 'CI_PROJECT_DIR', value: this.projectDir, public: true },
      { key: 'CI_SHARED_ENVIRONMENT', value: 'true', public: true },
      { key: 'CI_RUNNER_ID', value: String(this.settings.runnerId), public: true },
      { key: 'CI_RUNNER_DESCRIPTION', value: this.settings.description, public: true },
    ];
    return buildEnvironment(process.env, [...own, ...this.job.variables]);
  }

  private repoUrl(): string {
    if (!this.settings.cloneUrl) return this.job.repo_url;
    const url = new URL(this.job.repo_url);
    const replacement = new URL(this.settings.cloneUrl);
    url.protocol = replacement.protocol;
    url.host = replacement.host;
    return url.toString();
  }

  /** Runs a process in its own group (recorded for a restart), its output into the trace. */
  private async step(
    command: string,
    args: string[],
    env: NodeJS.ProcessEnv,
    cwd = this.projectDir,
    readable: string[] = [],
  ): Promise<StepResult> {
    this.throwIfInterrupted();
    const wrapped = this.settings.sandbox.wrap(command, args, {
      cwd,
      writable: [this.projectDir],
      readable,
    });
    const step = startStep(wrapped.command, wrapped.args, {
      cwd,
      env,
      output: (chunk) => this.trace.write(chunk),
    });
    this.currentPgid = step.pgid;
    this.settings.state.record({
      buildId: this.job.id,
      token: this.job.token,
      pgid: step.pgid,
      startTime: processStartTime(step.pgid),
    });
    try {
      return await step.done;
    } finally {
      this.currentPgid = undefined;
    }
  }

  /** A script in bash, optionally bounded (after_script); the bound ends only that script. */
  private async script(lines: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<StepResult> {
    const file = path.join(
      this.settings.buildsDir,
      `${path.basename(this.projectDir)}-${crypto.randomBytes(4).toString('hex')}.sh`,
    );
    fs.writeFileSync(file, bashScript(this.projectDir, lines), { mode: 0o600 });
    const bound =
      timeoutMs > 0
        ? setTimeout(() => this.currentPgid !== undefined && void endGroup(this.currentPgid), timeoutMs)
        : undefined;
    try {
      return await this.step('bash', ['--noprofile', '--norc', file], env, this.projectDir, [file]);
    } finally {
      clearTimeout(bound);
      fs.rmSync(file, { force: true });
    }
  }

  private cacheFile(cache: CacheOptions): string | undefined {
    const key = expandVariables(cache.key ?? `${this.job.name}/${this.job.ref}`, this.job.variables);
    if (key === '' || key.split('/').some((part) => part === '..')) {
      this.trace.warning(`Cache key ${JSON.stringify(key)} cannot name a cache; no cache is used.`);
      return undefined;
    }
    return path.join(
      this.settings.state.cache,
      String(this.job.project_id),
      `${encodeURIComponent(key)}.zip`,
    );
  }

  private async restoreCache(file: string): Promise<void> {
    const key = decodeURIComponent(path.basename(file, '.zip'));
    this.trace.notice(`Checking cache for ${key}...`);
    if (!fs.existsSync(file)) {
      this.trace.warning('No cache yet for this key.');
      return;
    }
    try {
      await extractZip(file, this.projectDir);
      this.trace.notice('Successfully extracted cache');
    } catch (error) {
      this.trace.warning(`Failed to extract cache: ${(error as Error).message}`);
    }
  }

  private async saveCache(cache: CacheOptions, file: string): Promise<void> {
    const key = decodeURIComponent(path.basename(file, '.zip'));
    this.trace.notice(`Creating cache ${key}...`);
    const selection = await selectFiles(this.projectDir, cache.paths, cache.untracked);
    for (const pattern of selection.unmatched) this.trace.warning(`${pattern}: no matching files`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Written beside and renamed into place: a build unpacking the cache meanwhile sees the old one whole.
    const temporary = `${file}.${process.pid}-${this.job.id}.tmp`;
    try {
      await writeZip(this.projectDir, selection.entries, temporary);
      fs.renameSync(temporary, file);
      this.trace.notice('Created cache');
    } catch (error) {
      fs.rmSync(temporary, { force: true });
      this.trace.warning(`Failed to create cache: ${(error as Error).message}`);
    }
  }

  private async uploadArtifacts(
    name: string | undefined,
    paths: string[],
    untracked: boolean,
    expireIn: string | undefined,
  ): Promise<void> {
    this.trace.notice('Uploading artifacts...');
    const selection = await selectFiles(this.projectDir, paths, untracked);
    for (const pattern of selection.unmatched) this.trace.warning(`${pattern}: no matching files`);
    if (selection.entries.length === 0) {
      this.trace.error('No files to upload');
      return;
    }
    const filename = `${expandVariables(name ?? 'artifacts', this.job.variables).replace(/[/\\]/g, '_') || 'artifacts'}.zip`;
    const file = path.join(this.settings.buildsDir, `${path.basename(this.projectDir)}-artifacts.zip`);
    try {
      await writeZip(this.projectDir, selection.entries, file);
      await this.settings.client.uploadArtifacts(this.job, file, filename, expireIn);
      this.trace.write(
        `Uploading artifacts to the coordinator... ok (${selection.entries.length} entries)\n`,
      );
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  /** The work dir goes; so does anything a step left behind in it. */
  private async cleanUp(): Promise<void> {
    await fs.promises.rm(this.projectDir, { recursive: true, force: true }).catch(() => undefined);
  }

  /** PUT the final state, retrying while the server cannot be reached. */
  private async report(outcome: 'success' | 'failed'): Promise<void> {
    for (let attempt = 0; attempt < 20 && this.interruption !== 'canceled'; attempt++) {
      try {
        const answer = await this.settings.client.updateJob(
          this.job,
          outcome,
          outcome === 'failed' ? this.exitCode : undefined,
          this.interruption === 'timeout' ? 'job_execution_timeout' : 'script_failure',
        );
        if (answer !== 'failed') return;
      } catch {
        // unreachable for now
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(500 * 2 ** attempt, 5000)));
    }
  }
}

/** `<build id>-<8 hex>`: a fresh name per build, and what removeStaleWorkDirs recognises. */
function workDirName(buildId: number): string {
  return `${buildId}-${crypto.randomBytes(4).toString('hex')}`;
}

/** Work dirs (and their scripts and archives) a killed runner left in the builds dir; nothing else. */
export function removeStaleWorkDirs(buildsDir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(buildsDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (/^\d+-[0-9a-f]{8}(-|$)/.test(name))
      fs.rmSync(path.join(buildsDir, name), { recursive: true, force: true });
  }
}

function exitFailure(result: StepResult): string {
  return result.code === null ? `terminated by ${result.signal}` : `exit code ${result.code}`;
}
