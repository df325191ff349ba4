// Runners as the runner protocol knows them: registration with the shared registration token (a shared
// runner) or a project's runners token (a runner specific to that project), unregistration, the token
// check of every runner call, and the contact bookkeeping.
import type { Deps } from '../deps.ts';
import { now } from '../clock.ts';
import { forbidden, notFound } from '../errors.ts';
import { friendlyToken, hexToken } from '../ci/tokens.ts';
import { findProjectRecordByRunnersToken } from '../db/repositories/projects.ts';
import {
  assignRunner,
  deleteRunner,
  findRunnerByToken,
  insertRunner,
  updateRunner,
} from '../db/repositories/runners.ts';
import { findSetting, insertSettingIfAbsent } from '../db/repositories/settings.ts';
import { isRegistrationToken } from '../policies/ci.ts';
import type { CiRunnerChanges, CiRunnerRow } from '../db/types.ts';

const REGISTRATION_TOKEN_KEY = 'runners_registration_token';

/**
 * The shared runner registration token: LABRADOR_RUNNER_TOKEN when set, otherwise one generated on first
 * use and kept in the settings table (so every process and restart agrees on it).
 */
export async function runnerRegistrationToken(deps: Deps): Promise<string> {
  if (deps.config.runnerToken) return deps.config.runnerToken;
  const db = deps.db.kysely;
  return (
    (await findSetting(db, REGISTRATION_TOKEN_KEY)) ??
    insertSettingIfAbsent(db, REGISTRATION_TOKEN_KEY, friendlyToken())
  );
}

/** What a runner says about itself (`info` of its requests). */
export interface RunnerInfo {
  name?: string;
  version?: string;
  revision?: string;
  platform?: string;
  architecture?: string;
}

export interface RunnerRegistration {
  token: string;
  description?: string;
  /** Comma-separated (as runners send it) or a list. */
  tagList?: string | string[];
  runUntagged?: boolean;
  locked?: boolean;
  info: RunnerInfo;
}

/** acts-as-taggable's reading of a tag list: comma-separated, trimmed, blanks and repeats dropped. */
export function parseTagList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const items = Array.isArray(value) ? value.flatMap((item) => item.split(',')) : value.split(',');
  return [...new Set(items.map((item) => item.trim()).filter((item) => item !== ''))];
}

function infoChanges(info: RunnerInfo): CiRunnerChanges {
  const changes: CiRunnerChanges = {};
  for (const key of ['name', 'version', 'revision', 'platform', 'architecture'] as const) {
    if (info[key] !== undefined) changes[key] = info[key];
  }
  return changes;
}

/**
 * POST runners/register: the shared token makes a shared runner, a project's runners token a runner of
 * that project, anything else 403. A runner that may not run untagged builds needs tags (GitLab's
 * validation failed, and the API answered 404).
 */
export async function registerRunner(deps: Deps, registration: RunnerRegistration): Promise<CiRunnerRow> {
  const db = deps.db.kysely;
  const shared = isRegistrationToken(registration.token, await runnerRegistrationToken(deps));
  const project = shared ? undefined : await findProjectRecordByRunnersToken(db, registration.token);
  if (!shared && !project) throw forbidden();
  const tags = parseTagList(registration.tagList);
  const runUntagged = registration.runUntagged ?? true;
  if (tags.length === 0 && !runUntagged) throw notFound();
  const at = now();
  return db.transaction().execute(async (trx) => {
    const runner = await insertRunner(trx, {
      token: hexToken(),
      description: registration.description ?? null,
      is_shared: shared ? 1 : 0,
      active: 1,
      locked: registration.locked ? 1 : 0,
      run_untagged: runUntagged ? 1 : 0,
      tag_list: JSON.stringify(tags),
      name: null,
      version: null,
      revision: null,
      platform: null,
      architecture: null,
      contacted_at: null,
      created_at: at,
      updated_at: at,
      ...infoChanges(registration.info),
    });
    if (project) await assignRunner(trx, runner.id, project.project.id, at);
    return runner;
  });
}

/** The runner a call's `token` names; 403 for none (a removed runner learns it is gone). */
export async function authenticateRunner(deps: Deps, token: string | undefined): Promise<CiRunnerRow> {
  const runner = token ? await findRunnerByToken(deps.db.kysely, token) : undefined;
  if (!runner) throw forbidden();
  return runner;
}

export async function unregisterRunner(deps: Deps, runner: CiRunnerRow): Promise<void> {
  await deleteRunner(deps.db.kysely, runner.id);
}

// GitLab wrote contacts at most every 10–20 minutes (a random threshold per call), not on every poll.
const CONTACT_EVERY_MS = 10 * 60 * 1000;

/** Notes the runner's contact and what it says about itself, unless it was noted recently. */
export async function recordRunnerContact(deps: Deps, runner: CiRunnerRow, info: RunnerInfo): Promise<void> {
  const threshold = CONTACT_EVERY_MS + Math.random() * CONTACT_EVERY_MS;
  if (runner.contacted_at && Date.now() - Date.parse(runner.contacted_at) < threshold) return;
  const at = now();
  await updateRunner(deps.db.kysely, runner.id, { contacted_at: at, ...infoChanges(info) });
  runner.contacted_at = at;
}
