// The process (`node dist/main.mjs`, what `npm start` and a supervisor run): read and check the
// settings, start, say what was started, and stop gracefully on SIGTERM or SIGINT within
// LABRADOR_STOP_TIMEOUT_MS. A failure at start prints one line and exits non-zero (2: bad settings,
// 1: anything else); LABRADOR_LOG_LEVEL=debug adds the stack trace.
import { performance } from 'node:perf_hooks';
import { ConfigError, describeDatabase, loadConfig, type Config } from './config.ts';
import { createLogger } from './process/logger.ts';
import { startServer, type Server } from './server.ts';
import { startBuiltinRunner, type BuiltinRunner } from './process/builtin-runner.ts';
import { runnerRegistrationToken } from './services/ci/runners.ts';
import { explainStartupError } from './process/startup-errors.ts';
import { reportStartup } from './process/startup-summary.ts';
import { version } from './lib/version.ts';

/** After the stop bound, open connections are cut; this much later the process exits regardless. */
const HARD_STOP_GRACE_MS = 5000;

function fail(error: unknown, debug: boolean): never {
  process.stderr.write(`labrador: ${explainStartupError(error).split('\n').join('\nlabrador: ')}\n`);
  if (debug) {
    const detail = (error as Error)?.cause ?? error;
    process.stderr.write(`${(detail as Error)?.stack ?? String(detail)}\n`);
  }
  process.exit(error instanceof ConfigError ? 2 : 1);
}

function debugRequested(config?: Config): boolean {
  const level = config?.logLevel ?? process.env.LABRADOR_LOG_LEVEL?.toLowerCase();
  return level === 'debug' || level === 'trace';
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  fail(error, debugRequested());
}
const terminal = process.stdout.isTTY === true;
const log = await createLogger(config, terminal);
for (const name of config.unknownVariables) {
  log.warn(`${name} is not a Labrador setting (misspelt?); it is ignored`);
}

// Signals are handled from here on: one that arrives while starting is acted on once the start is
// complete (so root's generated credentials are always shown); a second one exits at once.
let server: Server | undefined;
let runner: BuiltinRunner | undefined;
let stopping = false;
let requested: NodeJS.Signals | undefined;
function onSignal(signal: NodeJS.Signals): void {
  if (stopping || requested) {
    log.warn(`${signal} again: exiting without waiting`);
    process.exit(1);
  }
  if (!server) {
    requested = signal;
    log.info(`${signal} while starting: stopping as soon as the start is complete`);
    return;
  }
  void stop(server, signal);
}
process.on('SIGTERM', onSignal);
process.on('SIGINT', onSignal);

try {
  server = await startServer(config, log, { listen: true });
} catch (error) {
  fail(error, debugRequested(config));
}
reportStartup(
  log,
  {
    version,
    database: describeDatabase(config),
    dataDir: config.dataDir,
    surfaces: server.surfaces,
    root: server.root,
    startedInMs: Math.round(performance.now()),
  },
  terminal,
);
if (config.runner === 'builtin' && server.surfaces[0]) {
  runner = startBuiltinRunner(
    {
      url: server.surfaces[0].url,
      registrationToken: await runnerRegistrationToken(server.deps),
      dataDir: config.dataDir,
      sandbox: config.runnerSandbox,
    },
    log,
  );
}
if (requested) {
  const signal = requested;
  requested = undefined;
  void stop(server, signal);
}

async function stop(running: Server, signal: NodeJS.Signals): Promise<void> {
  stopping = true;
  const began = performance.now();
  log.info(`${signal}: stopping; requests and git operations in flight get ${config.stopTimeoutMs} ms`);
  const cut = setTimeout(() => {
    log.warn(`still busy after ${config.stopTimeoutMs} ms: closing the connections that are left`);
    running.app.server.closeAllConnections();
  }, config.stopTimeoutMs);
  const hard = setTimeout(() => {
    log.error('could not stop in time; exiting anyway');
    process.exit(1);
  }, config.stopTimeoutMs + HARD_STOP_GRACE_MS);
  hard.unref();
  try {
    // The runner first: it reports the builds it ends while the server still answers.
    await runner?.stop(Math.min(config.stopTimeoutMs, 5000));
    await running.close();
  } catch (error) {
    log.error({ err: error }, 'stop failed');
    process.exit(1);
  }
  clearTimeout(cut);
  log.info(`stopped in ${Math.round(performance.now() - began)} ms`);
  process.exit(0);
}
