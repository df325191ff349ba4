// GET/PUT /application/settings (GitLab 8.13's lib/api/settings.rb), administrators only (403 for
// anyone else). v3 and v4 read and write the one settings store through one handler; only the wire
// differs: 8.13 names the default visibilities as levels (0, 10, 20), v4 as words. A key Labrador has no
// setting for is ignored, as 8.13's attributes_for_keys ignored keys the model lacked.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/auth.ts';
import { optionalBoolean, optionalInteger, requestParams, type Params } from '../../http/params.ts';
import { grapeError } from '../../errors.ts';
import { VISIBILITY_NAMES } from '../../domain/types.ts';
import {
  readApplicationSettings,
  updateApplicationSettings,
  type ApplicationSettings,
  type SettingsChange,
} from '../../services/instance/application-settings.ts';
import { presentApplicationSettings } from '../../presenters/api-v3/application-setting.ts';

/** How one API version reads a PUT's parameters and shows the settings. */
export interface SettingsWire {
  change(params: Params): SettingsChange;
  present(settings: ApplicationSettings, deps: Deps): object;
}

export function registerSettingsRoutes(app: FastifyInstance, deps: Deps, wire: SettingsWire): void {
  app.get('/application/settings', async (request) => {
    requireAdmin(request);
    return wire.present(await readApplicationSettings(deps.db.kysely), deps);
  });

  app.put('/application/settings', async (request) => {
    requireAdmin(request);
    const params = requestParams(request);
    // Labrador has no self sign-up: saying it is on would be a setting that does nothing.
    if (optionalBoolean(params, 'signup_enabled') === true) {
      throw grapeError(400, 'signup_enabled is not supported: Labrador has no sign-up page');
    }
    return wire.present(await updateApplicationSettings(deps, wire.change(params)), deps);
  });
}

/** A level as 8.13 sent it; one that names no visibility goes on as given, for the service to refuse. */
function levelName(params: Params, name: string): string | undefined {
  const level = optionalInteger(params, name);
  if (level === undefined) return undefined;
  return VISIBILITY_NAMES[level] ?? String(level);
}

const V3: SettingsWire = {
  change: (params) => ({
    default_projects_limit: optionalInteger(params, 'default_projects_limit'),
    default_project_visibility: levelName(params, 'default_project_visibility'),
    default_group_visibility: levelName(params, 'default_group_visibility'),
  }),
  present: (settings, deps) => presentApplicationSettings(settings, deps.config),
};

export function register(app: FastifyInstance, deps: Deps): void {
  registerSettingsRoutes(app, deps, V3);
}
