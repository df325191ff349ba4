// The one place that reads process.env: the start-up contract in DESIGN.md, as a typed object.
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… selects PostgreSQL; undefined means SQLite in the data dir. */
  databaseUrl: string | undefined;
  externalUrl: string;
  rootPassword: string | undefined;
  rootToken: string | undefined;
  runnerToken: string | undefined;
  /** Largest accepted upload (project uploads), in bytes. */
  uploadMaxBytes: number;
  logLevel: string;
  hooks: HookDeliveryConfig;
}

/** The webhook delivery worker (src/workers/hook-delivery.ts). */
export interface HookDeliveryConfig {
  /** How often the worker looks for due deliveries, in ms (it is also woken after each enqueue). */
  pollIntervalMs: number;
  /** Per-request timeout; GitLab's webhook_timeout defaulted to 10 s. */
  timeoutMs: number;
  /** Attempts before a delivery is marked failed (the first one included). */
  maxAttempts: number;
  /** First retry delay; each further retry waits twice as long, up to an hour. */
  retryBaseMs: number;
  /** Deliveries in flight per process, and per hook (so one dead receiver cannot hold every slot). */
  concurrency: number;
  perHookConcurrency: number;
  /** Delivered and failed deliveries (with their attempts) are deleted after this many days; 0 keeps them. */
  retentionDays: number;
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer`);
  return parsed;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env.LABRADOR_PORT, 8080, 'LABRADOR_PORT');
  const databaseUrl = env.LABRADOR_DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('LABRADOR_DATABASE_URL must be a postgres:// URL');
  }
  return {
    port,
    host: env.LABRADOR_HOST || '127.0.0.1',
    dataDir: path.resolve(env.LABRADOR_DATA_DIR || './data'),
    databaseUrl,
    externalUrl: (env.LABRADOR_EXTERNAL_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    rootPassword: env.LABRADOR_ROOT_PASSWORD || undefined,
    rootToken: env.LABRADOR_ROOT_TOKEN || undefined,
    runnerToken: env.LABRADOR_RUNNER_TOKEN || undefined,
    uploadMaxBytes: integer(env.LABRADOR_UPLOAD_MAX_BYTES, 10 * 1024 * 1024, 'LABRADOR_UPLOAD_MAX_BYTES'),
    logLevel: env.LABRADOR_LOG_LEVEL || 'info',
    hooks: {
      pollIntervalMs: integer(env.LABRADOR_HOOK_POLL_MS, 1000, 'LABRADOR_HOOK_POLL_MS'),
      timeoutMs: integer(env.LABRADOR_HOOK_TIMEOUT_MS, 10_000, 'LABRADOR_HOOK_TIMEOUT_MS'),
      maxAttempts: Math.max(1, integer(env.LABRADOR_HOOK_MAX_ATTEMPTS, 6, 'LABRADOR_HOOK_MAX_ATTEMPTS')),
      retryBaseMs: integer(env.LABRADOR_HOOK_RETRY_BASE_MS, 15_000, 'LABRADOR_HOOK_RETRY_BASE_MS'),
      concurrency: Math.max(1, integer(env.LABRADOR_HOOK_CONCURRENCY, 16, 'LABRADOR_HOOK_CONCURRENCY')),
      perHookConcurrency: Math.max(
        1,
        integer(env.LABRADOR_HOOK_PER_HOOK_CONCURRENCY, 4, 'LABRADOR_HOOK_PER_HOOK_CONCURRENCY'),
      ),
      retentionDays: integer(env.LABRADOR_HOOK_RETENTION_DAYS, 30, 'LABRADOR_HOOK_RETENTION_DAYS'),
    },
  };
}
