// The GitLab version Labrador answers as (GET /version, the CI_SERVER_* variables of jobs).
export const GITLAB_VERSION = '8.13.0';
export const REVISION = 'labrador';
