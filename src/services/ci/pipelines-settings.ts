// A project's CI settings that API v3 never exposed (GitLab 8.13's Projects::PipelinesSettingsController):
// the build timeout, the coverage regex and public builds; and the reset of the runners registration
// token (8.13 let masters type a new one; a random one is what anyone would type).
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { friendlyToken } from '../../lib/tokens.ts';
import { updateProject } from '../../db/repositories/projects.ts';
import { ValidationErrors } from '../../errors.ts';
import type { ProjectChanges } from '../../db/types.ts';

export interface PipelinesSettings {
  /** Minutes, as the form asks (stored in seconds). */
  buildTimeoutMinutes: number;
  /** Blank turns coverage parsing off. */
  coverageRegex: string;
  publicBuilds: boolean;
}

// Later GitLab versions refused less than ten minutes; a month is far beyond any sane build.
const MIN_TIMEOUT_MINUTES = 10;
const MAX_TIMEOUT_MINUTES = 30 * 24 * 60;
const MAX_REGEX_LENGTH = 255;

export async function updatePipelinesSettings(
  deps: Deps,
  projectId: number,
  settings: PipelinesSettings,
): Promise<void> {
  const errors = new ValidationErrors();
  const minutes = settings.buildTimeoutMinutes;
  if (!Number.isInteger(minutes) || minutes < MIN_TIMEOUT_MINUTES || minutes > MAX_TIMEOUT_MINUTES) {
    errors.add(
      'build_timeout',
      `needs to be a whole number of minutes from ${MIN_TIMEOUT_MINUTES} to ${MAX_TIMEOUT_MINUTES}`,
    );
  }
  const regex = settings.coverageRegex.trim();
  if (regex.length > MAX_REGEX_LENGTH) {
    errors.add('build_coverage_regex', `is too long (maximum is ${MAX_REGEX_LENGTH} characters)`);
  } else if (regex !== '') {
    try {
      new RegExp(regex);
    } catch {
      errors.add('build_coverage_regex', 'is not a valid regular expression');
    }
  }
  errors.throwIfAny();
  const changes: ProjectChanges = {
    build_timeout: minutes * 60,
    build_coverage_regex: regex === '' ? null : regex,
    public_builds: settings.publicBuilds ? 1 : 0,
    updated_at: now(),
  };
  await updateProject(deps.db.kysely, projectId, changes);
}

/** A new runners registration token: runners registered with the old one keep working, new ones need this. */
export async function resetRunnersToken(deps: Deps, projectId: number): Promise<void> {
  await updateProject(deps.db.kysely, projectId, { runners_token: friendlyToken(), updated_at: now() });
}
