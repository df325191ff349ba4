// The one place that reads process.env: the start-up contract in DESIGN.md, as a typed object. Every
// setting is checked here, before anything is written anywhere; all problems are reported at once, one
// line each, naming the variable and what it accepts.
import net from 'node:net';
import path from 'node:path';
import { validAllowlistEntry, type OutboundPolicy } from './lib/outbound-guard.ts';

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
  /** `builtin`: `npm start` also starts one of Labrador's runners (dist/runner.mjs) beside the server. */
  runner: 'builtin' | 'none';
  /** LABRADOR_RUNNER_SANDBOX: the builtin runner's builds under bubblewrap (`bwrap`) or not (`off`). */
  runnerSandbox: 'bwrap' | 'off';
  /** Largest accepted upload (project uploads), in bytes. */
  uploadMaxBytes: number;
  /** Build artifacts archives must be smaller than this, in bytes (GitLab's max_artifacts_size, 100 MB). */
  artifactsMaxBytes: number;
  /** Disk kept for upload-pack's answers to repeated clones (storage/pack-cache.ts), in bytes; 0: none. */
  packCacheBytes: number;
  /** scrypt's cost for new password hashes, as log2 of its N (14: N = 16384, 16 MiB per hash). */
  passwordHashCost: number;
  logLevel: LogLevel;
  /** One info line per request (method, path, status, duration); always on at debug and trace. */
  logRequests: boolean;
  /**
   * Addresses (or CIDR ranges) of reverse proxies whose X-Forwarded-For is believed: a request from one
   * of them is taken to come from the client it names (the sign-in limiter keys by that address).
   */
  trustedProxies: string[];
  /** How long a graceful stop may take before open connections are cut, in ms. */
  stopTimeoutMs: number;
  /**
   * A connection whose request headers have not all arrived after this long is answered 408 and closed,
   * in ms (GitLab's nginx allowed 60 s; an honest client sends its headers at once).
   */
  requestHeadersTimeoutMs: number;
  hooks: HookDeliveryConfig;
  /** Where outbound requests (hook deliveries) may go although local (lib/outbound-guard.ts). */
  outbound: OutboundPolicy;
  mail: MailConfig;
  ssh: SshConfig;
  /** LABRADOR_* variables that no setting reads (most likely misspelt); reported at start. */
  unknownVariables: string[];
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

/** Outgoing mail (src/services/mail/, src/workers/mail-delivery.ts). */
export interface MailConfig {
  /** smtp://[user:password@]host[:port] (STARTTLS when offered) or smtps://…; undefined sends nothing. */
  smtpUrl: string | undefined;
  /** The From address (LABRADOR_EMAIL_FROM, else gitlab@<host of the external URL>). */
  from: string;
  pollIntervalMs: number;
  /** Per-attempt timeout of one SMTP conversation. */
  timeoutMs: number;
  /** Attempts before a mail is marked failed (the first one included). */
  maxAttempts: number;
  /** First retry delay; each further retry waits twice as long, up to an hour. */
  retryBaseMs: number;
}

/** The SMTP URL as it may be shown: no password. */
export function redactSmtpUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  url.password = '';
  return url.toString();
}

function checkSmtpUrl(reader: SettingsReader, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^smtps?:$/.test(url.protocol) || url.hostname === '') {
    reader.problems.push(
      `LABRADOR_SMTP_URL must be an smtp://user:password@host:port or smtps://… URL (unset it to send no mail), got ${JSON.stringify(value.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1@'))}`,
    );
    return undefined;
  }
  return value;
}

/** The built-in SSH server for git (src/ssh/). */
export interface SshConfig {
  /** Listening port on `host`; 0 turns the server off. */
  port: number;
  /** The name clients use (LABRADOR_SSH_HOST, else the host of the external URL). */
  publicHost: string;
  /** The start of ssh_url_to_repo: `git@host:` on port 22, `ssh://git@host:port/` otherwise. */
  cloneUrlBase: string;
  /** Connections at once, signed in or not; more are closed at once. */
  maxSessions: number;
  /** A connection that has not authenticated after this long is closed, in ms. */
  authTimeoutMs: number;
}

/** `git@host:` for port 22 (scp-like form, as GitLab showed), else the URL form with the port. */
function sshCloneUrlBase(publicHost: string, port: number): string {
  const host = publicHost.includes(':') ? `[${publicHost}]` : publicHost;
  return port === 22 || port === 0 ? `git@${host}:` : `ssh://git@${host}:${port}/`;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Settings that cannot work; the message has one line per problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/** Reads LABRADOR_* variables, remembers which were read and collects every problem. */
class SettingsReader {
  readonly problems: string[] = [];
  private readonly read = new Set<string>();

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  text(name: string): string | undefined {
    this.read.add(name);
    const value = this.env[name];
    return value === undefined || value === '' ? undefined : value;
  }

  integer(name: string, fallback: number, range: { min?: number; max?: number; what?: string } = {}): number {
    const value = this.text(name);
    if (value === undefined) return fallback;
    const min = range.min ?? 0;
    const max = range.max ?? Number.MAX_SAFE_INTEGER;
    const parsed = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      const accepted =
        range.what ?? (range.max === undefined ? `an integer ≥ ${min}` : `an integer ${min}–${max}`);
      this.problems.push(`${name} must be ${accepted}, got ${JSON.stringify(value)}`);
      return fallback;
    }
    return parsed;
  }

  /** A list of IP addresses or CIDR ranges, separated by commas or spaces; empty when unset. */
  addresses(name: string): string[] {
    const entries = (this.text(name) ?? '').split(/[\s,]+/).filter((entry) => entry !== '');
    for (const entry of entries) {
      const [address, prefix, ...rest] = entry.split('/');
      const family = net.isIP(address);
      const bits = family === 4 ? 32 : 128;
      const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= bits);
      if (family === 0 || !prefixOk || rest.length > 0) {
        this.problems.push(`${name} must list IP addresses or CIDR ranges, got ${JSON.stringify(entry)}`);
        return [];
      }
    }
    return entries;
  }

  /** Hosts, IP addresses or CIDR ranges, separated by commas or spaces; empty when unset. */
  hostsOrRanges(name: string): string[] {
    const entries = (this.text(name) ?? '').split(/[\s,]+/).filter((entry) => entry !== '');
    const bad = entries.find((entry) => !validAllowlistEntry(entry));
    if (bad === undefined) return entries;
    this.problems.push(
      `${name} must list host names, IP addresses or CIDR ranges, got ${JSON.stringify(bad)}`,
    );
    return [];
  }

  flag(name: string): boolean {
    const value = this.text(name)?.toLowerCase();
    if (value === undefined) return false;
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    if (['0', 'false', 'no', 'off'].includes(value)) return false;
    this.problems.push(`${name} must be true or false, got ${JSON.stringify(this.env[name])}`);
    return false;
  }

  /** LABRADOR_* variables set but never read (LABRADOR_TEST_* belong to the test runner). */
  unread(): string[] {
    return Object.keys(this.env)
      .filter((name) => name.startsWith('LABRADOR_') && !name.startsWith('LABRADOR_TEST_'))
      .filter((name) => !this.read.has(name))
      .sort();
  }
}

/** A database URL as it may be shown: no password, no query string. */
function redactDatabaseUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    url.password = '';
    url.search = '';
    return url.toString();
  } catch {
    return databaseUrl.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1@').replace(/\?.*$/, '');
  }
}

/** Where the data lives, in words: `SQLite <file>` or `PostgreSQL <url without password>`. */
export function describeDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  return config.databaseUrl
    ? `PostgreSQL ${redactDatabaseUrl(config.databaseUrl)}`
    : `SQLite ${path.join(config.dataDir, 'labrador.sqlite3')}`;
}

function checkDatabaseUrl(reader: SettingsReader, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^postgres(ql)?:$/.test(url.protocol) || url.hostname === '') {
    reader.problems.push(
      `LABRADOR_DATABASE_URL must be a postgres://user:password@host:port/database URL (unset it for SQLite), got ${JSON.stringify(redactDatabaseUrl(value))}`,
    );
    return undefined;
  }
  return value;
}

function checkExternalUrl(reader: SettingsReader, value: string | undefined, port: number): string {
  if (value === undefined) return `http://localhost:${port}`;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
    reader.problems.push(
      `LABRADOR_EXTERNAL_URL must be an http:// or https:// URL without query, like https://git.example.com, got ${JSON.stringify(value)}`,
    );
  }
  return value.replace(/\/+$/, '');
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost';
  } catch {
    return 'localhost';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const reader = new SettingsReader(env);
  const port = reader.integer('LABRADOR_PORT', 8080, {
    max: 65535,
    what: 'a port number 1–65535 (0 picks a free one)',
  });
  const host = reader.text('LABRADOR_HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(reader.text('LABRADOR_DATA_DIR') ?? './data');
  const databaseUrl = checkDatabaseUrl(reader, reader.text('LABRADOR_DATABASE_URL'));
  const externalUrl = checkExternalUrl(reader, reader.text('LABRADOR_EXTERNAL_URL'), port);
  const rootPassword = reader.text('LABRADOR_ROOT_PASSWORD');
  if (rootPassword !== undefined && rootPassword.length < 8) {
    reader.problems.push('LABRADOR_ROOT_PASSWORD must be at least 8 characters long');
  }
  const rootToken = reader.text('LABRADOR_ROOT_TOKEN');
  if (rootToken !== undefined && !/^[\x21-\x7e]{8,}$/.test(rootToken)) {
    reader.problems.push('LABRADOR_ROOT_TOKEN must be at least 8 printable characters without spaces');
  }
  const sshPort = reader.integer('LABRADOR_SSH_PORT', 2222, {
    max: 65535,
    what: 'a port number 1–65535 (0 turns the SSH server off)',
  });
  const sshHost = reader.text('LABRADOR_SSH_HOST');
  if (sshHost !== undefined && !/^[A-Za-z0-9.:-]+$/.test(sshHost)) {
    reader.problems.push(`LABRADOR_SSH_HOST must be a host name or address, got ${JSON.stringify(sshHost)}`);
  }
  const publicSshHost = sshHost ?? hostOf(externalUrl);
  const runner = (reader.text('LABRADOR_RUNNER') ?? 'none').toLowerCase();
  if (runner !== 'builtin' && runner !== 'none') {
    reader.problems.push(
      `LABRADOR_RUNNER must be builtin (start a runner with the server) or none, got ${JSON.stringify(runner)}`,
    );
  }
  const runnerSandbox = (reader.text('LABRADOR_RUNNER_SANDBOX') ?? 'bwrap').toLowerCase();
  if (runnerSandbox !== 'bwrap' && runnerSandbox !== 'off') {
    reader.problems.push(
      `LABRADOR_RUNNER_SANDBOX must be bwrap (builds under bubblewrap) or off (unsandboxed), got ${JSON.stringify(runnerSandbox)}`,
    );
  }
  const logLevel = (reader.text('LABRADOR_LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    reader.problems.push(
      `LABRADOR_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`,
    );
  }
  const emailFrom = reader.text('LABRADOR_EMAIL_FROM') ?? `gitlab@${hostOf(externalUrl)}`;
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(emailFrom) && !/^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(emailFrom)) {
    reader.problems.push(
      `LABRADOR_EMAIL_FROM must be an address like gitlab@example.com or "GitLab <gitlab@example.com>", got ${JSON.stringify(emailFrom)}`,
    );
  }
  const config: Config = {
    port,
    host,
    dataDir,
    databaseUrl,
    externalUrl,
    rootPassword,
    rootToken,
    runnerToken: reader.text('LABRADOR_RUNNER_TOKEN'),
    runner: runner === 'builtin' ? 'builtin' : 'none',
    runnerSandbox: runnerSandbox === 'off' ? 'off' : 'bwrap',
    uploadMaxBytes: reader.integer('LABRADOR_UPLOAD_MAX_BYTES', 10 * 1024 * 1024, { min: 1 }),
    artifactsMaxBytes: reader.integer('LABRADOR_ARTIFACTS_MAX_BYTES', 100 * 1024 * 1024, { min: 1 }),
    packCacheBytes: reader.integer('LABRADOR_PACK_CACHE_MB', 256) * 1024 * 1024,
    // N = 2^18 already takes 256 MiB per hash; scrypt needs N > 1.
    passwordHashCost: reader.integer('LABRADOR_PASSWORD_HASH_COST', 14, {
      min: 1,
      max: 18,
      what: 'an integer 1–18 (log2 of scrypt’s N)',
    }),
    logLevel: (LOG_LEVELS as readonly string[]).includes(logLevel) ? (logLevel as LogLevel) : 'info',
    logRequests: reader.flag('LABRADOR_LOG_REQUESTS'),
    trustedProxies: reader.addresses('LABRADOR_TRUSTED_PROXIES'),
    stopTimeoutMs: reader.integer('LABRADOR_STOP_TIMEOUT_MS', 8000, { min: 1 }),
    requestHeadersTimeoutMs: reader.integer('LABRADOR_REQUEST_HEADERS_TIMEOUT_MS', 30_000, { min: 1 }),
    hooks: {
      pollIntervalMs: reader.integer('LABRADOR_HOOK_POLL_MS', 1000, { min: 1 }),
      timeoutMs: reader.integer('LABRADOR_HOOK_TIMEOUT_MS', 10_000, { min: 1 }),
      maxAttempts: reader.integer('LABRADOR_HOOK_MAX_ATTEMPTS', 6, { min: 1 }),
      retryBaseMs: reader.integer('LABRADOR_HOOK_RETRY_BASE_MS', 15_000),
      concurrency: reader.integer('LABRADOR_HOOK_CONCURRENCY', 16, { min: 1 }),
      perHookConcurrency: reader.integer('LABRADOR_HOOK_PER_HOOK_CONCURRENCY', 4, { min: 1 }),
      retentionDays: reader.integer('LABRADOR_HOOK_RETENTION_DAYS', 30),
    },
    // allowLocal is the administrator's switch (GitLab's allow_local_requests_from_web_hooks_and_services);
    // off unless something sets it.
    outbound: { allowlist: reader.hostsOrRanges('LABRADOR_OUTBOUND_ALLOWLIST'), allowLocal: false },
    mail: {
      smtpUrl: checkSmtpUrl(reader, reader.text('LABRADOR_SMTP_URL')),
      from: emailFrom,
      pollIntervalMs: reader.integer('LABRADOR_MAIL_POLL_MS', 1000, { min: 1 }),
      timeoutMs: reader.integer('LABRADOR_MAIL_TIMEOUT_MS', 30_000, { min: 1 }),
      maxAttempts: reader.integer('LABRADOR_MAIL_MAX_ATTEMPTS', 10, { min: 1 }),
      retryBaseMs: reader.integer('LABRADOR_MAIL_RETRY_BASE_MS', 30_000),
    },
    ssh: {
      port: sshPort,
      publicHost: publicSshHost,
      cloneUrlBase: sshCloneUrlBase(publicSshHost, sshPort),
      maxSessions: reader.integer('LABRADOR_SSH_MAX_SESSIONS', 64, { min: 1 }),
      authTimeoutMs: reader.integer('LABRADOR_SSH_AUTH_TIMEOUT_MS', 30_000, { min: 1 }),
    },
    unknownVariables: [],
  };
  if (reader.problems.length > 0) throw new ConfigError(reader.problems);
  config.unknownVariables = reader.unread();
  return config;
}
