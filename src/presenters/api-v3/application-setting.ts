// 8.13's ApplicationSetting entity, every key it exposed. The settings Labrador stores come from the
// store (visibilities as levels, as 8.13 kept them); each other key says what Labrador does, which no
// setting changes: no sign-up, password sign-in, Gravatar avatars, no domain lists, no Koding, one
// repository storage, the default branch fully protected (2), the upload bound of the configuration (MB).
import type { Config } from '../../config.ts';
import { visibilityLevel } from '../../domain/types.ts';
import type { ApplicationSettings } from '../../services/instance/application-settings.ts';

export function presentApplicationSettings(settings: ApplicationSettings, config: Config) {
  return {
    id: 1,
    default_projects_limit: settings.default_projects_limit,
    signup_enabled: false,
    signin_enabled: true,
    gravatar_enabled: true,
    sign_in_text: null,
    after_sign_up_text: null,
    created_at: null,
    updated_at: null,
    home_page_url: null,
    default_branch_protection: 2,
    restricted_visibility_levels: [],
    max_attachment_size: Math.floor(config.uploadMaxBytes / (1024 * 1024)),
    session_expire_delay: null,
    default_project_visibility: visibilityLevel(settings.default_project_visibility),
    default_snippet_visibility: 0,
    default_group_visibility: visibilityLevel(settings.default_group_visibility),
    domain_whitelist: [],
    domain_blacklist_enabled: false,
    domain_blacklist: [],
    user_oauth_applications: false,
    after_sign_out_path: null,
    container_registry_token_expire_delay: null,
    repository_storage: 'default',
    koding_enabled: false,
    koding_url: null,
  };
}
