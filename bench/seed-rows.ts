// Rows the benches seed in bulk through the database layer.
import type { NewUserRow } from '../src/db/types.ts';

/** A user row written straight into the table (password hashing would dominate a bulk seed). */
export function benchUserValues(
  username: string,
  token: string,
  at: string,
  projectsLimit = 1_000_000,
): NewUserRow {
  return {
    username,
    name: `User ${username}`,
    email: `${username}@example.com`,
    encrypted_password: 'x',
    authentication_token: token,
    state: 'active',
    admin: 0,
    external: 0,
    can_create_group: 1,
    projects_limit: projectsLimit,
    bio: null,
    location: null,
    skype: '',
    linkedin: '',
    twitter: '',
    website_url: '',
    organization: null,
    theme_id: 1,
    color_scheme_id: 1,
    two_factor_enabled: 0,
    confirmed_at: at,
    last_sign_in_at: at,
    current_sign_in_at: at,
    created_at: at,
    updated_at: at,
  };
}
