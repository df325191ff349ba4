// The first administrator: created on the first start with the configured (or generated) password and
// token, printed once; later starts leave it alone.
import type { Deps } from '../deps.ts';
import { findUserByUsername } from '../db/repositories/users.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { generateToken } from './passwords.ts';
import { insertUserWithNamespace } from './users.ts';

export async function ensureRootUser(deps: Deps): Promise<void> {
  if (await findUserByUsername(deps.db.kysely, 'root')) return;
  const password = deps.config.rootPassword ?? generateToken();
  const token = deps.config.rootToken ?? generateToken();
  try {
    await insertUserWithNamespace(deps.db.kysely, {
      username: 'root',
      name: 'Administrator',
      email: 'admin@example.com',
      password,
      authenticationToken: token,
      admin: true,
    });
  } catch (error) {
    // Another process sharing the database created it first.
    if (isUniqueViolation(error)) return;
    throw error;
  }
  if (!deps.config.rootPassword || !deps.config.rootToken) {
    // Printed once, on the only start that knows it.
    const lines = ['Created the administrator "root".'];
    if (!deps.config.rootPassword) lines.push(`  password:      ${password}`);
    if (!deps.config.rootToken) lines.push(`  private token: ${token}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
