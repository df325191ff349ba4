// One Labrador instance: data dir and database (checked to belong together, migrated), the HTTP app, the
// first administrator, background workers. main.ts runs it as a process; tests start it with a
// temporary data dir and usually without listening.
import net from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { describeDatabase, redactSmtpUrl, type Config } from './config.ts';
import { openDatabase, type Db } from './db/connect.ts';
import { migrate } from './db/migrations/index.ts';
import { pingDatabase } from './db/repositories/database.ts';
import { createDeps, type Deps } from './deps.ts';
import { buildApp } from './app.ts';
import { ensureRootUser, type RootUserOutcome } from './services/users/root-user.ts';
import { checkDatabaseIdentity, stampDatabaseIdentity } from './services/instance/database-identity.ts';
import { installHooks } from './git/protocol/server-hooks.ts';
import { recoverPendingPushes } from './services/push/push.ts';
import { recoverLockedMerges } from './services/merge-requests/merge-recovery.ts';
import { finishRepositoryMoves } from './services/repository/repository-moves.ts';
import { probeDataDir } from './storage/data-dir.ts';
import { HookDeliveryWorker } from './workers/hook-delivery.ts';
import { MailDeliveryWorker } from './workers/mail-delivery.ts';
import { startSshServer } from './ssh/server.ts';
import { StuckBuildsWorker } from './workers/stuck-builds.ts';
import { CiTimersWorker } from './workers/ci-timers.ts';
import { ArtifactsExpiryWorker } from './workers/artifacts-expiry.ts';
import { AutoMergeWorker } from './workers/auto-merge.ts';
import { PipelineScheduleWorker } from './workers/pipeline-schedules.ts';
import type { Worker } from './workers/worker.ts';
import type { Surface } from './process/startup-summary.ts';
import type { HostKey } from './ssh/host-keys.ts';
import { dataDirError, databaseError, listenError, StartupError } from './process/startup-errors.ts';

export interface Server {
  app: FastifyInstance;
  deps: Deps;
  /** Sends the webhook outbox; tests call drain(). */
  hookWorker: HookDeliveryWorker;
  /** Sends the mail outbox (idle without LABRADOR_SMTP_URL); tests call drain(). */
  mailWorker: MailDeliveryWorker;
  /** Drops builds that stopped moving a day ago; tests call drain(at). */
  stuckBuildsWorker: StuckBuildsWorker;
  ciTimersWorker: CiTimersWorker;
  /** Removes expired artifacts that nobody kept; tests call drain(). */
  artifactsWorker: ArtifactsExpiryWorker;
  autoMergeWorker: AutoMergeWorker;
  pipelineScheduleWorker: PipelineScheduleWorker;
  /** Background loops, stopped together by close(); a new kind of worker joins this list. */
  workers: Worker[];
  /** What clients connect to (filled when listening); each listener adds its own entry. */
  surfaces: Surface[];
  root: RootUserOutcome;
  /**
   * Stops accepting, lets in-flight requests finish while the workers stop and give their claims back,
   * then closes the database. main.ts bounds how long it may take.
   */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Listen on config.host:config.port, before root is created (so a busy port costs no secrets). */
  listen?: boolean;
}

async function openCheckedDatabase(config: Config): Promise<Db> {
  try {
    await probeDataDir(config.dataDir, { create: true });
  } catch (error) {
    throw dataDirError(error, config.dataDir);
  }
  let db: Db | undefined;
  try {
    db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    await pingDatabase(db.kysely);
    return db;
  } catch (error) {
    await db?.close().catch(() => {});
    throw databaseError(error, config);
  }
}

export async function startServer(
  config: Config,
  log: FastifyBaseLogger = pino({ level: config.logLevel }),
  options: StartOptions = {},
): Promise<Server> {
  // A busy port or a wrong host is found before anything is written (the real listen comes later).
  if (options.listen) await probeListen(config);
  const db = await openCheckedDatabase(config);
  let app: FastifyInstance | undefined;
  const workers: Worker[] = [];
  try {
    const subject = { db, dataDir: config.dataDir, database: describeDatabase(config) };
    const before = await checkDatabaseIdentity(subject);
    if (before.state === 'mismatch') throw new StartupError(before.message);
    try {
      await migrate(db);
    } catch (error) {
      throw new StartupError(`migrating ${subject.database} failed: ${(error as Error).message}`, error);
    }
    const mismatch = await stampDatabaseIdentity(subject);
    if (mismatch) throw new StartupError(mismatch);

    const deps = createDeps(config, db, log);
    await installHooks(config.dataDir);
    // Transfers whose directories a crash left at the old place (before pushes, which need them).
    await finishRepositoryMoves(deps);
    // Pushes whose processing a crash interrupted (ref moved, events not yet recorded).
    await recoverPendingPushes(deps);
    // Merges that a crash left locked: finished when their commit reached the branch, else undone.
    await recoverLockedMerges(deps);
    app = await buildApp(deps);
    await app.ready();
    const surfaces: Surface[] = [];
    if (options.listen) {
      try {
        await app.listen({ port: config.port, host: config.host });
      } catch (error) {
        throw listenError(error, config);
      }
      surfaces.push(...httpSurfaces(app, config), mailSurface(config));
    }
    if (options.listen && config.ssh.port !== 0) {
      let ssh;
      try {
        ssh = await startSshServer(deps, log);
      } catch (error) {
        throw listenError(error, { host: config.host, port: config.ssh.port }, 'LABRADOR_SSH_PORT');
      }
      workers.push(ssh.server);
      surfaces.push(sshSurface(config, ssh.port, ssh.hostKeys));
    }
    const root = await ensureRootUser(deps);
    const hookWorker = new HookDeliveryWorker(db, config.hooks, log, config.outbound, () =>
      deps.pushQueue.drain(),
    );
    hookWorker.start();
    const mailWorker = new MailDeliveryWorker(deps, log);
    mailWorker.start();
    const stuckBuildsWorker = new StuckBuildsWorker(deps, log);
    stuckBuildsWorker.start();
    const ciTimersWorker = new CiTimersWorker(deps, log);
    ciTimersWorker.start();
    const artifactsWorker = new ArtifactsExpiryWorker(deps, log);
    artifactsWorker.start();
    // Merges owed when a head pipeline succeeded (some perhaps left by a crash).
    const autoMergeWorker = new AutoMergeWorker(deps, log);
    autoMergeWorker.start();
    const pipelineScheduleWorker = new PipelineScheduleWorker(deps, log);
    pipelineScheduleWorker.start();
    workers.unshift(
      hookWorker,
      mailWorker,
      stuckBuildsWorker,
      ciTimersWorker,
      artifactsWorker,
      autoMergeWorker,
      pipelineScheduleWorker,
    );
    const http = app;
    let closing: Promise<void> | undefined;
    return {
      app: http,
      deps,
      hookWorker,
      mailWorker,
      stuckBuildsWorker,
      ciTimersWorker,
      artifactsWorker,
      autoMergeWorker,
      pipelineScheduleWorker,
      workers,
      surfaces,
      root,
      close: () => {
        closing ??= (async () => {
          await Promise.all([http.close(), ...workers.map((worker) => worker.stop())]);
          // Pushes already answered get their events recorded (or stay pending for the next start).
          await deps.pushQueue.drain();
          await deps.packCache.close();
          await db.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await Promise.all(workers.map((worker) => worker.stop().catch(() => {})));
    await app?.close().catch(() => {});
    await db.close().catch(() => {});
    throw error;
  }
}

async function probeListen(config: Config): Promise<void> {
  const probe = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ port: config.port, host: config.host, exclusive: true }, resolve);
    });
  } catch (error) {
    throw listenError(error, config);
  } finally {
    await new Promise((resolve) => probe.close(resolve));
  }
}

function sshSurface(config: Config, port: number, hostKeys: HostKey[]): Surface {
  return {
    name: 'SSH',
    url: `ssh://git@${config.ssh.publicHost}:${port} (clone URLs: ${config.ssh.cloneUrlBase}<namespace>/<project>.git)`,
    details: hostKeys.map((key) => `host key ${key.type} ${key.fingerprint}`),
  };
}

function mailSurface(config: Config): Surface {
  return config.mail.smtpUrl
    ? { name: 'mail', url: `${redactSmtpUrl(config.mail.smtpUrl)} from ${config.mail.from}` }
    : { name: 'mail', url: 'off (LABRADOR_SMTP_URL is not set): no mail is sent' };
}

function httpSurfaces(app: FastifyInstance, config: Config): Surface[] {
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return [
    { name: 'HTTP', url: `http://${host}:${port}`, details: [`API ${config.externalUrl}/api/v3`] },
    { name: 'git', url: `${config.externalUrl}/<namespace>/<project>.git` },
    { name: 'health', url: `http://${host}:${port}/-/health` },
  ];
}
