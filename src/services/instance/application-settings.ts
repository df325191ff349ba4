// The instance's application settings (GitLab's ApplicationSetting) that mean something in Labrador, each
// kept as one row of the settings table under `application.<name>` (absent: the default below). Readers
// for the code that acts on them live here too, so every use reads the same stored value.
import type { Deps } from '../../deps.ts';
import type { Executor } from '../../db/types.ts';
import { findSetting, lockSettings, replaceSetting } from '../../db/repositories/settings.ts';
import { isBranchName } from '../../git/ref-names.ts';
import { visibilityLevel, type VisibilityName } from '../../domain/types.ts';
import { ValidationErrors } from '../../errors.ts';

/** The settings an administrator may change, as GitLab names them. */
export interface ApplicationSettings {
  /** The branch a repository created through v4 starts on (v3 keeps 8.13's `master`). */
  default_branch_name: string;
  /** What a project created through v4 without a visibility gets. */
  default_project_visibility: VisibilityName;
  /** What a group created through v4 without a visibility gets. */
  default_group_visibility: VisibilityName;
  /** Whether webhooks and integrations may be delivered to loopback and private addresses. */
  allow_local_requests_from_web_hooks_and_services: boolean;
  /**
   * Whether system hooks may be delivered to loopback and private addresses. GitLab allows it by default;
   * Labrador does not: no outbound request reaches the local network unless an administrator says so.
   */
  allow_local_requests_from_system_hooks: boolean;
  /** The projects_limit a new user gets when whoever creates them names none. */
  default_projects_limit: number;
}

const DEFAULTS: ApplicationSettings = {
  default_branch_name: 'main',
  default_project_visibility: 'private',
  default_group_visibility: 'private',
  allow_local_requests_from_web_hooks_and_services: false,
  allow_local_requests_from_system_hooks: false,
  default_projects_limit: 10,
};

/** GitLab's column is a 4-byte integer; its validation wanted a number at least zero. */
const MAX_PROJECTS_LIMIT = 2147483647;

type Name = keyof ApplicationSettings;
const NAMES = Object.keys(DEFAULTS) as Name[];
const key = (name: Name) => `application.${name}`;

/** One setting as stored (or its default). */
async function readSetting<N extends Name>(db: Executor, name: N): Promise<ApplicationSettings[N]> {
  const stored = await findSetting(db, key(name));
  return stored === undefined ? DEFAULTS[name] : (JSON.parse(stored) as ApplicationSettings[N]);
}

/** Every setting, each through the reader its users call. */
export async function readApplicationSettings(db: Executor): Promise<ApplicationSettings> {
  return {
    default_branch_name: await defaultBranchName(db),
    default_project_visibility: await readSetting(db, 'default_project_visibility'),
    default_group_visibility: await readSetting(db, 'default_group_visibility'),
    allow_local_requests_from_web_hooks_and_services: await allowsLocalRequestsFromWebHooks(db),
    allow_local_requests_from_system_hooks: await allowsLocalRequestsFromSystemHooks(db),
    default_projects_limit: await defaultProjectsLimit(db),
  };
}

/**
 * Whether an outbound webhook or integration delivery may go to a loopback, link-local or private
 * address (GitLab's allow_local_requests_from_web_hooks_and_services; off by default). The outbound
 * guard asks this before each delivery.
 */
export async function allowsLocalRequestsFromWebHooks(db: Executor): Promise<boolean> {
  return readSetting(db, 'allow_local_requests_from_web_hooks_and_services');
}

/** The same for system hooks (allow_local_requests_from_system_hooks; on by default, as GitLab). */
export async function allowsLocalRequestsFromSystemHooks(db: Executor): Promise<boolean> {
  return readSetting(db, 'allow_local_requests_from_system_hooks');
}

/** The branch a repository created through v4 starts on. */
export async function defaultBranchName(db: Executor): Promise<string> {
  return readSetting(db, 'default_branch_name');
}

/** The projects_limit of a user created without one (sign-up, admin creation, import). */
export async function defaultProjectsLimit(db: Executor): Promise<number> {
  return readSetting(db, 'default_projects_limit');
}

/** The visibility level a project or group created through v4 without one gets. */
export async function defaultVisibilityLevel(db: Executor, of: 'project' | 'group'): Promise<number> {
  const name = await readSetting(
    db,
    of === 'project' ? 'default_project_visibility' : 'default_group_visibility',
  );
  return visibilityLevel(name)!;
}

/** What a PUT asks to change, already typed by the route. */
export type SettingsChange = Partial<Record<Name, string | boolean | number>>;

/** Validates and stores the changes in one transaction; answers every setting afterwards. */
export async function updateApplicationSettings(
  deps: Deps,
  change: SettingsChange,
): Promise<ApplicationSettings> {
  const errors = new ValidationErrors();
  const values: Partial<Record<Name, unknown>> = {};
  for (const name of NAMES) {
    const value = change[name];
    if (value === undefined) continue;
    if (typeof DEFAULTS[name] === 'boolean') {
      values[name] = value;
    } else if (name === 'default_projects_limit') {
      const limit = typeof value === 'number' ? value : Number(String(value).trim());
      if (!Number.isInteger(limit) || String(value).trim() === '') errors.add(name, 'is not a number');
      else if (limit < 0) errors.add(name, 'must be greater than or equal to 0');
      else if (limit > MAX_PROJECTS_LIMIT) errors.add(name, `must be less than ${MAX_PROJECTS_LIMIT + 1}`);
      values[name] = limit;
    } else if (name === 'default_branch_name') {
      const branch = String(value).trim();
      if (!isBranchName(branch)) errors.add(name, 'is invalid');
      values[name] = branch;
    } else {
      const word = String(value).trim().toLowerCase();
      if (visibilityLevel(word) === undefined) errors.add(name, 'is not included in the list');
      values[name] = word;
    }
  }
  errors.throwIfAny();
  return deps.db.kysely.transaction().execute(async (trx) => {
    await lockSettings(trx, deps.db.dialect);
    for (const [name, value] of Object.entries(values)) {
      await replaceSetting(trx, key(name as Name), JSON.stringify(value));
    }
    return readApplicationSettings(trx);
  });
}
