// The project settings pages (issue 26): one module per page group, all behind the same loader and
// policies as the API's routes for the same settings.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { registerGeneralSettings } from './general.tsx';
import { registerRepositorySettings } from './repository-settings.tsx';
import { registerCiSettings } from './ci.tsx';

export function registerProjectSettings(web: FastifyInstance, deps: Deps): void {
  registerGeneralSettings(web, deps);
  registerRepositorySettings(web, deps);
  registerCiSettings(web, deps);
}
