// Administrator commands run against the same configuration as the server (`npm run admin -- …`), on
// the same data dir and database, while the server runs or not.
//
// LDAP synchronization is what set and cleared `ldap_blocked` in GitLab; Labrador has no LDAP, so an
// operator does it here, and the API then refuses to block or unblock such users (403), as GitLab did.
//
// Exit codes: 0 done (or nothing to do; check: no problem found), 1 refused, unknown user or problems
// found, 2 usage error or bad settings, 3 unexpected failure.
import pino from 'pino';
import { ConfigError, describeDatabase, loadConfig, type Config } from './config.ts';
import { openDatabase, type Db } from './db/connect.ts';
import { migrate } from './db/migrations/index.ts';
import type { UserRow } from './db/types.ts';
import { createDeps } from './deps.ts';
import {
  findAccount,
  passwordProblem,
  regeneratePrivateToken,
  resetPassword,
} from './services/users/account-recovery.ts';
import { checkDatabaseIdentity } from './services/instance/database-identity.ts';
import { checkInstance } from './services/instance/instance-check.ts';
import { friendlyToken } from './lib/tokens.ts';
import { ldapBlockUser, ldapUnblockUser } from './services/users/users.ts';
import { databaseError, StartupError } from './process/startup-errors.ts';
import { BackupRefused, createBackup, restoreBackup } from './services/instance/backup.ts';

const USAGE = `usage: npm run admin -- <command> [arguments]

commands:
  reset-password <username>          set a new generated password and print it
  reset-password <username> --stdin  set the password read from standard input
  create-token <username>            replace the user's private token with a new one and print it
  check                              report whether database, data dir and repositories agree
                                     (changes nothing)
  backup <file>                     write one archive (.tar, or .tar.gz) of the database, repositories,
                                     uploads, artifacts, traces and the data dir's identity (server may run)
  restore <file>                     restore such an archive into an empty data dir and empty database
  ldap-block <username>              mark an active user as blocked by LDAP synchronization
  ldap-unblock <username>            let an LDAP-blocked user back in (state active)
`;

class UsageError extends Error {}

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // One trailing line break is the end of the line, not part of the password.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** The database, refused (one line) when the data dir belongs to another one; migrated for writes. */
async function openChecked(config: Config, options: { migrate: boolean }): Promise<Db> {
  let db: Db;
  try {
    db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    throw databaseError(error, config);
  }
  try {
    const identity = await checkDatabaseIdentity({
      db,
      dataDir: config.dataDir,
      database: describeDatabase(config),
    });
    if (identity.state === 'mismatch') throw new StartupError(identity.message);
    if (options.migrate) await migrate(db);
    return db;
  } catch (error) {
    await db.close();
    throw databaseError(error, config);
  }
}

async function withUser(
  db: Db,
  username: string,
  action: (user: UserRow) => Promise<number>,
): Promise<number> {
  const user = await findAccount(db.kysely, username);
  if (!user) {
    err(`no user with username "${username}"`);
    return 1;
  }
  return action(user);
}

async function ldap(db: Db, command: string, user: UserRow): Promise<number> {
  if (command === 'ldap-block') {
    if (user.state === 'ldap_blocked') {
      out(`${user.username} is already LDAP-blocked`);
      return 0;
    }
    if (!(await ldapBlockUser(db.kysely, user.id))) {
      err(`${user.username} is ${user.state}, not active: only active users can be LDAP-blocked`);
      return 1;
    }
    out(`${user.username} is now LDAP-blocked`);
    return 0;
  }
  if (user.state === 'active') {
    out(`${user.username} is not LDAP-blocked (already active)`);
    return 0;
  }
  if (!(await ldapUnblockUser(db.kysely, user.id))) {
    err(`${user.username} is ${user.state}, not LDAP-blocked: unblock it with PUT /users/${user.id}/unblock`);
    return 1;
  }
  out(`${user.username} is now active`);
  return 0;
}

/** Progress on a terminal, one line rewritten in place; nothing when the output is a file or a pipe. */
function progressLine(): ((line: string) => void) & { done(): void } {
  const tty = process.stderr.isTTY;
  let last = 0;
  const show = (line: string) => {
    if (!tty || Date.now() - last < 100) return;
    last = Date.now();
    process.stderr.write(`\r\x1b[K${line}`);
  };
  return Object.assign(show, { done: () => tty && process.stderr.write('\r\x1b[K') });
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function archiveCommand(command: 'backup' | 'restore', file: string): Promise<number> {
  const config = loadConfig();
  const progress = progressLine();
  try {
    if (command === 'restore') {
      const done = await restoreBackup(config, file, progress);
      progress.done();
      out(
        `restored ${file}: ${done.tables} tables (${done.rows} rows), ${done.repositories} repositories, ${done.files} files in ${done.seconds.toFixed(1)} s`,
      );
      return 0;
    }
    const db = await openChecked(config, { migrate: false });
    try {
      const done = await createBackup(config, db, file, progress);
      progress.done();
      out(
        `backup ${file}: ${megabytes(done.bytes)}, ${done.tables} tables (${done.rows} rows), ${done.repositories} repositories, ${done.files} files in ${done.seconds.toFixed(1)} s`,
      );
      return 0;
    } finally {
      await db.close();
    }
  } catch (error) {
    progress.done();
    if (error instanceof BackupRefused) {
      err(error.message);
      return 1;
    }
    throw error;
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  const userCommands = ['reset-password', 'create-token', 'ldap-block', 'ldap-unblock'];
  if (command === 'check') {
    if (args.length > 0) throw new UsageError('check takes no arguments');
  } else if (command === 'backup' || command === 'restore') {
    if (args.length !== 1 || args[0].startsWith('-'))
      throw new UsageError(`${command} takes one archive file`);
    return archiveCommand(command, args[0]);
  } else if (!userCommands.includes(command)) {
    throw new UsageError(`unknown command: ${command}`);
  } else {
    const [username, ...rest] = args;
    const flags = command === 'reset-password' ? ['--stdin'] : [];
    if (!username || username.startsWith('-') || rest.some((arg) => !flags.includes(arg))) {
      throw new UsageError(`${command}: missing or extra arguments`);
    }
  }

  const config = loadConfig();
  // Reads before it writes anything, and never migrates: a check changes nothing.
  const db = await openChecked(config, { migrate: command !== 'check' });
  const deps = createDeps(config, db, pino({ level: 'silent' }));
  try {
    if (command === 'check') {
      let problems = 0;
      for await (const finding of checkInstance(deps)) {
        if (!finding.ok) problems++;
        out(`${finding.ok ? 'ok     ' : 'PROBLEM'}  ${finding.text}`);
      }
      out(problems === 0 ? 'no problems found' : `${problems} problem(s) found; nothing was changed`);
      return problems === 0 ? 0 : 1;
    }
    const username = args[0];
    if (command === 'reset-password') {
      const fromStdin = args.includes('--stdin');
      return await withUser(db, username, async (user) => {
        const password = fromStdin ? await readStdin() : friendlyToken();
        const problem = passwordProblem(password);
        if (problem) {
          err(`${problem}; the password of ${user.username} was not changed`);
          return 1;
        }
        await resetPassword(deps, user, password);
        if (fromStdin) out(`the password of ${user.username} is changed`);
        else out(password);
        return 0;
      });
    }
    if (command === 'create-token') {
      return await withUser(db, username, async (user) => {
        out(await regeneratePrivateToken(deps, user));
        return 0;
      });
    }
    return await withUser(db, username, (user) => ldap(db, command, user));
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${USAGE}`);
      process.exit(2);
    }
    process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(error instanceof ConfigError ? 2 : error instanceof StartupError ? 1 : 3);
  },
);
