// `npm run runner -- --url <labrador url> --registration-token <token>`: Labrador's own runner, a client
// of the runner protocol over HTTP only (so it also works against a Labrador on another machine). It
// registers once (the token is kept in <data dir>/runner/config.json, or where --config says), ends what
// a previous run left running, then polls for builds until SIGTERM or SIGINT (or, started by the server
// with LABRADOR_RUNNER=builtin, until the server goes away).
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { removeStaleWorkDirs, type BuildSettings } from './build.ts';
import { ProtocolClient, RunnerRejectedError } from './client.ts';
import { Runner, type PollSettings } from './runner.ts';
import { DEFAULT_BWRAP, openSandbox, SANDBOX_UNAVAILABLE_EXIT } from './sandbox.ts';
import { readConfigFile, StateDir, writeConfigFile, type RunnerConfigFile } from './state.ts';

const USAGE = `usage: npm run runner -- --url <labrador url> --registration-token <token> [options]
  --url URL                  the Labrador (or GitLab 9.0 or later) to take jobs from
  --registration-token TOKEN the shared runner registration token (or REGISTRATION_TOKEN in the environment);
                             needed only until the runner has registered
  --data-dir DIR             where the runner keeps its state (DIR/runner; default ./data)
  --config FILE              the runner's config file (default DIR/runner/config.json)
  --builds-dir DIR           where builds are checked out (default DIR/runner/builds)
  --concurrency N            builds at once (default: the number of cores, here ${os.availableParallelism()})
  --clone-url URL            clone from this scheme://host:port instead of the server's external URL
  --description TEXT         how the runner appears on the server (default: this host's name)
  --tag-list TAGS            comma-separated tags to register with
  --trace-limit BYTES        the largest trace a build may write (default 4194304)
  --trace-interval-ms MS     how often the trace is sent while a build runs (default 1000)
  --max-poll-ms MS           the longest wait between asking for builds when idle (default 3000)
  --sandbox bwrap|off        run each build under bubblewrap (default), or unsandboxed (unsafe when
                             people you do not trust push .gitlab-ci.yml)
  --bwrap PATH               bubblewrap's executable (default ${DEFAULT_BWRAP})`;

function fail(message: string, code = 2): never {
  process.stderr.write(`labrador-runner: ${message}\n`);
  process.exit(code);
}

function log(line: string): void {
  process.stdout.write(`${new Date().toISOString()} runner: ${line}\n`);
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    fail(`--${name} must be an integer ≥ 1, got ${JSON.stringify(value)}`);
  return Number(value);
}

function checkUrl(name: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  fail(`--${name} must be an http:// or https:// URL, got ${JSON.stringify(value)}`);
}

const OPTIONS = {
  url: { type: 'string' },
  'registration-token': { type: 'string' },
  'data-dir': { type: 'string' },
  config: { type: 'string' },
  'builds-dir': { type: 'string' },
  concurrency: { type: 'string' },
  'clone-url': { type: 'string' },
  description: { type: 'string' },
  'tag-list': { type: 'string' },
  'trace-limit': { type: 'string' },
  'trace-interval-ms': { type: 'string' },
  'max-poll-ms': { type: 'string' },
  sandbox: { type: 'string' },
  bwrap: { type: 'string' },
  help: { type: 'boolean' },
} as const;

function parseOptions() {
  try {
    return parseArgs({ options: OPTIONS, strict: true }).values;
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
}

const parsed = parseOptions();
if (parsed.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const stateDir = new StateDir(path.resolve(parsed['data-dir'] ?? './data', 'runner'));
const configFile = path.resolve(parsed.config ?? path.join(stateDir.dir, 'config.json'));
const registrationToken = parsed['registration-token'] ?? process.env.REGISTRATION_TOKEN;
const description = parsed.description ?? os.hostname();
let stored: RunnerConfigFile | undefined;
try {
  stored = readConfigFile(configFile);
} catch (error) {
  fail((error as Error).message);
}
const url = checkUrl('url', parsed.url ?? stored?.url ?? fail(`--url is missing\n${USAGE}`));
const cloneUrl = parsed['clone-url'] === undefined ? undefined : checkUrl('clone-url', parsed['clone-url']);
const poll: PollSettings = {
  concurrency: positiveInteger('concurrency', parsed.concurrency, os.availableParallelism()),
  minPollMs: 200,
  maxPollMs: positiveInteger('max-poll-ms', parsed['max-poll-ms'], 3000),
};
const traceLimit = positiveInteger('trace-limit', parsed['trace-limit'], 4 * 1024 * 1024);
const traceIntervalMs = positiveInteger('trace-interval-ms', parsed['trace-interval-ms'], 1000);

const sandboxMode = parsed.sandbox ?? 'bwrap';
if (sandboxMode !== 'bwrap' && sandboxMode !== 'off') {
  fail(`--sandbox must be bwrap or off, got ${JSON.stringify(sandboxMode)}`);
}
const sandbox = openSandbox(sandboxMode, parsed.bwrap);
if ('problem' in sandbox) {
  fail(
    `no sandbox for builds: ${sandbox.problem}; not starting (--sandbox off / LABRADOR_RUNNER_SANDBOX=off runs builds unsandboxed, unsafe when shared)`,
    SANDBOX_UNAVAILABLE_EXIT,
  );
}

try {
  stateDir.lock();
} catch (error) {
  fail((error as Error).message, 1);
}
const client = new ProtocolClient(url);

/** The runner's token: the stored one for this URL, else a new registration. */
async function register(force: boolean): Promise<RunnerConfigFile> {
  if (!force && stored && stored.url === url) return stored;
  if (!registrationToken) {
    fail(
      `${force ? 'the server no longer knows this runner' : 'not registered yet'}: give --registration-token`,
    );
  }
  for (;;) {
    try {
      const { id, token } = await client.register(registrationToken, description, parsed['tag-list']);
      stored = { url, id, token };
      writeConfigFile(configFile, stored);
      log(`registered with ${url} as runner #${id} (token kept in ${configFile})`);
      return stored;
    } catch (error) {
      if (error instanceof RunnerRejectedError) fail(error.message, 1);
      log(`cannot register yet (${(error as Error).message}); trying again`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** Builds a killed runner left: their processes are ended, the server told they failed. */
async function endLeftovers(): Promise<void> {
  for (const leftover of await stateDir.endLeftovers()) {
    const note = Buffer.from(
      '\n\x1b[31;1mERROR: Build failed: the runner stopped during the build\x1b[0;m\n',
    );
    try {
      // Appended after whatever trace the server holds (the 416 answer says how much).
      const job = { id: leftover.buildId, token: leftover.token };
      const probe = await client.patchTrace(job, 0, note);
      if (probe.kind === 'range') await client.patchTrace(job, probe.offset, note);
      await client.updateJob(job, 'failed');
      log(`build ${leftover.buildId} was left running by a previous run: ended, reported failed`);
    } catch (error) {
      log(
        `build ${leftover.buildId} was left running by a previous run: ended (${(error as Error).message})`,
      );
    }
    stateDir.forget(leftover.buildId);
  }
}

let runner: Runner | undefined;
let stopping = false;
async function stop(why: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${why}: stopping`);
  await runner?.stop();
  stateDir.unlock();
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
// Started by the server: it going away (even killed) stops us too.
if (process.channel) process.on('disconnect', () => void stop('the server went away'));

let config = await register(false);
await endLeftovers();
const buildsDir = path.resolve(parsed['builds-dir'] ?? path.join(stateDir.dir, 'builds'));
removeStaleWorkDirs(buildsDir);
const settings = (token: string, id: number): BuildSettings => ({
  client,
  runnerToken: token,
  runnerId: id,
  description,
  state: stateDir,
  buildsDir,
  cloneUrl,
  traceLimit,
  traceIntervalMs,
  sandbox,
});
log(
  `taking builds from ${url}, ${poll.concurrency} at a time, ${sandbox.mode === 'bwrap' ? 'each in a bubblewrap sandbox' : 'UNSANDBOXED'}`,
);
for (;;) {
  runner = new Runner(settings(config.token, config.id), poll, log);
  try {
    await runner.run();
    break;
  } catch (error) {
    if (!(error instanceof RunnerRejectedError) || stopping) throw error;
    config = await register(true);
  }
}
