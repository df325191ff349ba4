// Administrator commands run against the same configuration as the server (`npm run admin -- …`).
// LDAP synchronization is what set and cleared `ldap_blocked` in GitLab; Labrador has no LDAP, so an
// operator does it here, and the API then refuses to block or unblock such users (403), as GitLab did.
//
// Exit codes: 0 done (or nothing to do), 1 refused or unknown user, 2 usage error, 3 unexpected failure.
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connect.ts';
import { migrate } from './db/migrations/index.ts';
import { findUserByUsername } from './db/repositories/users.ts';
import { ldapBlockUser, ldapUnblockUser } from './services/users.ts';

const USAGE = `usage: npm run admin -- <command> <username>

commands:
  ldap-block <username>     mark an active user as blocked by LDAP synchronization
  ldap-unblock <username>   let an LDAP-blocked user back in (state active)
`;

async function main(argv: string[]): Promise<number> {
  const [command, username, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (!['ldap-block', 'ldap-unblock'].includes(command) || !username || rest.length > 0) {
    process.stderr.write(
      `${command === 'ldap-block' || command === 'ldap-unblock' ? 'missing or extra arguments' : `unknown command: ${command}`}\n${USAGE}`,
    );
    return 2;
  }

  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db);
    const user = await findUserByUsername(db.kysely, username);
    if (!user) {
      process.stderr.write(`no user with username "${username}"\n`);
      return 1;
    }
    if (command === 'ldap-block') {
      if (user.state === 'ldap_blocked') {
        process.stdout.write(`${user.username} is already LDAP-blocked\n`);
        return 0;
      }
      if (!(await ldapBlockUser(db.kysely, user.id))) {
        process.stderr.write(
          `${user.username} is ${user.state}, not active: only active users can be LDAP-blocked\n`,
        );
        return 1;
      }
      process.stdout.write(`${user.username} is now LDAP-blocked\n`);
      return 0;
    }
    if (user.state === 'active') {
      process.stdout.write(`${user.username} is not LDAP-blocked (already active)\n`);
      return 0;
    }
    if (!(await ldapUnblockUser(db.kysely, user.id))) {
      process.stderr.write(
        `${user.username} is ${user.state}, not LDAP-blocked: unblock it with PUT /users/${user.id}/unblock\n`,
      );
      return 1;
    }
    process.stdout.write(`${user.username} is now active\n`);
    return 0;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(3);
  },
);
