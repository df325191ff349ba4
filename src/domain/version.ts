// The GitLab version Labrador answers as (GET /version, the CI_SERVER_* variables of jobs): /api/v3 is
// GitLab 8.13's; /api/v4 follows a current GitLab's entities, and clients that gate features on the
// version (python-gitlab, Renovate, glab) read this one.
export const GITLAB_VERSION = '8.13.0';
export const API_V4_GITLAB_VERSION = '17.11.0';
export const REVISION = 'labrador';
