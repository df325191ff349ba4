// The request path as GitLab 8.13 matched it, in one place before routing (Fastify's rewriteUrl), for
// the APIs (/api/v3, /api/v4) and the runner protocol (/ci/api/v1) only:
// - Rails merged repeated slashes and dropped a trailing one (python-gitlab 1.4 sends
//   `POST /projects/:id/issues/` and `GET …/issues//:issue_id`);
// - Grape (`format :json`) answered every route with an optional `.json` suffix.
// The suffix stays where the last segment is free text that may itself end in `.json` (a branch, tag,
// ref or search string, which Grape's `requirements` let win): those routes are FREE_TEXT_TAILS.
// Git smart HTTP, uploads and pages are left as sent: there slashes and dots are data.

const PREFIXES = ['/api/v3/', '/api/v4/', '/ci/api/v1/'];

/** Paths whose last segment is a name, not a resource: `.json` there is part of the name. */
const FREE_TEXT_TAILS = [
  /^\/api\/v[34]\/projects\/[^/]+\/repository\/(branches|tags)\/./,
  /^\/api\/v[34]\/projects\/[^/]+\/repository\/(commits|blobs|raw_blobs)\/[^/]+$/,
  /^\/api\/v[34]\/projects\/[^/]+\/repository\/archive\.[^/]+$/,
  /^\/api\/v3\/projects\/[^/]+\/builds\/artifacts\//,
  /^\/api\/v3\/projects\/search\//,
  // v4: a file's path, a protected branch's name, a job's artifacts by ref.
  /^\/api\/v4\/projects\/[^/]+\/repository\/files\//,
  /^\/api\/v4\/projects\/[^/]+\/protected_(branches|tags)\/./,
  /^\/api\/v4\/projects\/[^/]+\/jobs\/artifacts\//,
];

/** The URL to route: normalised for API and runner paths, untouched otherwise. */
export function normaliseApiUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (!path.includes('//') && !path.endsWith('/') && !path.endsWith('.json')) return url;
  let merged = path.replace(/\/{2,}/g, '/');
  if (!PREFIXES.some((prefix) => merged.startsWith(prefix) || `${merged}/` === prefix)) return url;
  if (merged.length > 1 && merged.endsWith('/')) merged = merged.slice(0, -1);
  if (merged.endsWith('.json') && !FREE_TEXT_TAILS.some((pattern) => pattern.test(merged))) {
    const stripped = merged.slice(0, -'.json'.length);
    // `/api/v3/projects/.json` has no resource left to name: it stays a miss.
    if (!stripped.endsWith('/')) merged = stripped;
  }
  return queryAt === -1 ? merged : merged + url.slice(queryAt);
}
