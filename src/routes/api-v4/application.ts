// The instance, administrators only: GET/PUT /application/settings (the settings Labrador acts on, as
// GitLab's ApplicationSetting entity names them) and GET /application/statistics (row counts, as
// strings with thousands separators, as GitLab's number_with_delimiter gives them).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/auth.ts';
import { optionalBoolean, optionalInteger, optionalString } from '../../http/params.ts';
import { instanceStatistics } from '../../views/instance-views.ts';
import type { ApplicationSettings, SettingsChange } from '../../services/instance/application-settings.ts';
import { registerSettingsRoutes, type SettingsWire } from '../api-v3/application-settings.ts';
import {
  presentApplicationSettings,
  presentApplicationStatistics,
} from '../../presenters/api-v4/application.ts';

const BOOLEANS = [
  'allow_local_requests_from_web_hooks_and_services',
  'allow_local_requests_from_system_hooks',
] as const satisfies (keyof ApplicationSettings)[];
const WORDS = [
  'default_branch_name',
  'default_project_visibility',
  'default_group_visibility',
] as const satisfies (keyof ApplicationSettings)[];

const V4: SettingsWire = {
  change(params) {
    const change: SettingsChange = {};
    for (const name of BOOLEANS) change[name] = optionalBoolean(params, name);
    for (const name of WORDS) change[name] = optionalString(params, name);
    change.default_projects_limit = optionalInteger(params, 'default_projects_limit');
    return change;
  },
  present: (settings, deps) => presentApplicationSettings(settings, deps.config),
};

export function register(app: FastifyInstance, deps: Deps): void {
  registerSettingsRoutes(app, deps, V4);

  app.get('/application/statistics', async (request) => {
    requireAdmin(request);
    return presentApplicationStatistics(await instanceStatistics(deps));
  });
}
