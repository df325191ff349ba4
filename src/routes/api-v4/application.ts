// The instance, administrators only: GET/PUT /application/settings (the settings Labrador acts on, as
// GitLab's ApplicationSetting entity names them) and GET /application/statistics (row counts, as
// strings with thousands separators, as GitLab's number_with_delimiter gives them).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/auth.ts';
import { optionalBoolean, optionalString, requestParams } from '../../http/params.ts';
import { instanceStatistics } from '../../views/instance-views.ts';
import {
  readApplicationSettings,
  updateApplicationSettings,
  type ApplicationSettings,
  type SettingsChange,
} from '../../services/instance/application-settings.ts';
import {
  presentApplicationSettings,
  presentApplicationStatistics,
} from '../../presenters/api-v4/application.ts';
import { grapeError } from '../../errors.ts';

const BOOLEANS = [
  'allow_local_requests_from_web_hooks_and_services',
  'allow_local_requests_from_system_hooks',
] as const satisfies (keyof ApplicationSettings)[];
const WORDS = [
  'default_branch_name',
  'default_project_visibility',
  'default_group_visibility',
] as const satisfies (keyof ApplicationSettings)[];

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/application/settings', async (request) => {
    requireAdmin(request);
    return presentApplicationSettings(await readApplicationSettings(deps.db.kysely), deps.config);
  });

  app.put('/application/settings', async (request) => {
    requireAdmin(request);
    const params = requestParams(request);
    // Labrador has no self sign-up: saying it is on would be a setting that does nothing.
    if (optionalBoolean(params, 'signup_enabled') === true) {
      throw grapeError(400, 'signup_enabled is not supported: Labrador has no sign-up page');
    }
    const change: SettingsChange = {};
    for (const name of BOOLEANS) change[name] = optionalBoolean(params, name);
    for (const name of WORDS) change[name] = optionalString(params, name);
    return presentApplicationSettings(await updateApplicationSettings(deps, change), deps.config);
  });

  app.get('/application/statistics', async (request) => {
    requireAdmin(request);
    return presentApplicationStatistics(await instanceStatistics(deps));
  });
}
