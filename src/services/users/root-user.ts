// The first administrator: created on the first start with the configured (or generated) password and
// token; later starts leave it alone. The caller shows generated secrets once, on the start that made them.
import type { Deps } from '../../deps.ts';
import { findUserByUsername } from '../../db/repositories/users.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { insertUserWithNamespace } from './users.ts';
import { friendlyToken } from '../../lib/tokens.ts';

export interface RootUserOutcome {
  /** This start created root. */
  created: boolean;
  /** Generated secrets, present only on the start that created root and only when not configured. */
  generatedPassword?: string;
  generatedToken?: string;
  /** LABRADOR_ROOT_* variables that were set but had no effect because root already existed. */
  ignoredSettings: string[];
}

function ignoredSettings(deps: Deps): string[] {
  const names: string[] = [];
  if (deps.config.rootPassword !== undefined) names.push('LABRADOR_ROOT_PASSWORD');
  if (deps.config.rootToken !== undefined) names.push('LABRADOR_ROOT_TOKEN');
  return names;
}

export async function ensureRootUser(deps: Deps): Promise<RootUserOutcome> {
  if (await findUserByUsername(deps.db.kysely, 'root')) {
    return { created: false, ignoredSettings: ignoredSettings(deps) };
  }
  const password = deps.config.rootPassword ?? friendlyToken();
  const token = deps.config.rootToken ?? friendlyToken();
  try {
    await insertUserWithNamespace(deps, {
      username: 'root',
      name: 'Administrator',
      email: 'admin@example.com',
      password,
      authenticationToken: token,
      admin: true,
    });
  } catch (error) {
    // Another process sharing the database created it first.
    if (isUniqueViolation(error)) return { created: false, ignoredSettings: ignoredSettings(deps) };
    throw error;
  }
  return {
    created: true,
    generatedPassword: deps.config.rootPassword === undefined ? password : undefined,
    generatedToken: deps.config.rootToken === undefined ? token : undefined,
    ignoredSettings: [],
  };
}
