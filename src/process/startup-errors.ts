// What went wrong at start, in one line an operator can act on: what is wrong, where (the path, the
// database URL without its password, the variable) and what to do. main.ts prints it without a stack
// trace unless LABRADOR_LOG_LEVEL=debug.
import os from 'node:os';
import path from 'node:path';
import { ConfigError, describeDatabase, type Config } from '../config.ts';

/** A failure whose message is already the one line to print. */
export class StartupError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
  }
}

type SystemError = Error & { code?: string; syscall?: string; hostname?: string; address?: string };

function codeOf(error: unknown): string | undefined {
  const code = (error as SystemError | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function currentUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

/** The data dir (or a file in it) could not be created or written. */
export function dataDirError(error: unknown, dataDir: string): StartupError {
  const where = `data dir ${dataDir}`;
  const fix = 'fix it or set LABRADOR_DATA_DIR';
  switch (codeOf(error)) {
    case 'EACCES':
    case 'EPERM':
      return new StartupError(
        `${where} is not writable by ${currentUser()} (permission denied): ${fix}`,
        error,
      );
    case 'EROFS':
      return new StartupError(`${where} is on a read-only file system: ${fix}`, error);
    case 'ENOTDIR':
    case 'EEXIST':
      return new StartupError(`${where} is not a directory (a file is in the way): ${fix}`, error);
    case 'ENOSPC':
      return new StartupError(`${where}: no space left on the device: free some space`, error);
    default:
      return new StartupError(`${where} cannot be created or written: ${(error as Error).message}`, error);
  }
}

/** Opening, reaching or migrating the database failed. */
export function databaseError(error: unknown, config: Pick<Config, 'databaseUrl' | 'dataDir'>): StartupError {
  if (error instanceof StartupError) return error;
  const database = describeDatabase(config);
  const code = codeOf(error);
  const message = (error as Error)?.message ?? String(error);
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username);
    const server = `${url.hostname}:${url.port || 5432}`;
    switch (code) {
      case 'ECONNREFUSED':
        return new StartupError(
          `cannot connect to ${database}: connection refused; is PostgreSQL running on ${server}? (LABRADOR_DATABASE_URL)`,
          error,
        );
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return new StartupError(
          `cannot connect to ${database}: host ${url.hostname} not found (LABRADOR_DATABASE_URL)`,
          error,
        );
      case 'ETIMEDOUT':
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return new StartupError(`cannot connect to ${database}: ${server} does not answer (${code})`, error);
      case '3D000':
        return new StartupError(
          `database "${name}" does not exist on ${server}: create it (createdb ${name}) or fix LABRADOR_DATABASE_URL`,
          error,
        );
      case '28P01':
      case '28000':
        return new StartupError(
          `${database} refused the login: ${message}; check user and password in LABRADOR_DATABASE_URL`,
          error,
        );
      case '42501':
        return new StartupError(
          `${database}: permission denied (${message}); the user must own the database`,
          error,
        );
    }
    if (/timeout/i.test(message)) {
      return new StartupError(`cannot connect to ${database}: no answer from ${server} in time`, error);
    }
    return new StartupError(`${database}: ${message}`, error);
  }
  const file = path.join(config.dataDir, 'labrador.sqlite3');
  switch (code) {
    case 'SQLITE_CANTOPEN':
      return new StartupError(
        `cannot open ${database}: check that the data dir is writable (LABRADOR_DATA_DIR)`,
        error,
      );
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
      return new StartupError(
        `${file} is not a usable SQLite database (${message}): restore it from a backup or set LABRADOR_DATA_DIR`,
        error,
      );
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new StartupError(`${file} is locked by another process: stop it first`, error);
    case 'SQLITE_READONLY':
      return new StartupError(`${file} is read-only: make it writable by ${currentUser()}`, error);
  }
  return new StartupError(`${database}: ${message}`, error);
}

/** Listening on LABRADOR_HOST:LABRADOR_PORT failed. */
export function listenError(
  error: unknown,
  config: Pick<Config, 'host' | 'port'>,
  setting = 'LABRADOR_PORT',
): StartupError {
  const at = `${config.host}:${config.port}`;
  switch (codeOf(error)) {
    case 'EADDRINUSE':
      return new StartupError(
        `port ${config.port} on ${config.host} is already in use: stop whatever listens there or set ${setting}`,
        error,
      );
    case 'EACCES':
    case 'EPERM':
      return new StartupError(
        `not allowed to listen on ${at}: ports below 1024 need privileges; set ${setting} to 1024 or above`,
        error,
      );
    case 'EADDRNOTAVAIL':
      return new StartupError(
        `${config.host} is not an address of this machine: set LABRADOR_HOST (127.0.0.1: this machine only, 0.0.0.0: every interface)`,
        error,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(`LABRADOR_HOST ${config.host} does not resolve to an address`, error);
  }
  return new StartupError(`cannot listen on ${at}: ${(error as Error).message}`, error);
}

/** The line (or lines, one per bad setting) to print for any failure at start. */
export function explainStartupError(error: unknown): string {
  if (error instanceof ConfigError || error instanceof StartupError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `could not start: ${message} (LABRADOR_LOG_LEVEL=debug shows the stack trace)`;
}
