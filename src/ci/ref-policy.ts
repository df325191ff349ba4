// Which jobs run for a ref (`only` / `except`): a pattern is `branches`, `tags`, `triggers`, an exact
// ref name, or `/regexp/` searched in the ref name (`merge_requests` in a merge request pipeline only); `pattern@namespace/project` applies only to that
// project. `only` must match when given, `except` must not.
//
// The regular expressions come from users, so they run with a time limit (a catastrophic pattern would
// otherwise stall the process): one that runs out counts as no match. Ruby's \A, \z and \Z anchors are
// read as JavaScript's ^ and $.
import vm from 'node:vm';

// Generous: a busy machine must not turn an ordinary match into "no match".
const MATCH_TIMEOUT_MS = 1000;
const sandbox = vm.createContext({ pattern: '', subject: '' });
const matcher = new vm.Script('new RegExp(pattern).test(subject)');

function javascriptSource(rubySource: string): string {
  return rubySource.replace(/\\A/g, '^').replace(/\\z/g, '$').replace(/\\Z/g, '(?=\\n?$)');
}

function isRegexpPattern(pattern: string): boolean {
  return pattern.length >= 2 && pattern.startsWith('/') && pattern.endsWith('/');
}

/** Whether a pattern is acceptable in `only`/`except`: a name, or a regexp that compiles. */
export function isValidRefPattern(pattern: string): boolean {
  if (!isRegexpPattern(pattern)) return true;
  try {
    new RegExp(javascriptSource(pattern.slice(1, -1)));
    return true;
  } catch {
    return false;
  }
}

const flagged = new vm.Script('new RegExp(pattern, flags).test(subject)');
const flaggedSandbox = vm.createContext({ pattern: '', flags: '', subject: '' });

/** A user's `/regexp/flags` tested with the same time limit (rules' `=~`); a bad one is no match. */
export function userRegexpMatches(source: string, flags: string, subject: string): boolean {
  flaggedSandbox.pattern = javascriptSource(source);
  flaggedSandbox.flags = flags.replace(/[^im]/g, '');
  flaggedSandbox.subject = subject;
  try {
    return flagged.runInContext(flaggedSandbox, { timeout: MATCH_TIMEOUT_MS }) === true;
  } catch {
    return false;
  }
}

function regexpMatches(source: string, subject: string): boolean {
  sandbox.pattern = javascriptSource(source);
  sandbox.subject = subject;
  try {
    return matcher.runInContext(sandbox, { timeout: MATCH_TIMEOUT_MS }) === true;
  } catch {
    return false;
  }
}

export interface RefContext {
  /** Branch or tag name. */
  ref: string;
  tag: boolean;
  triggered: boolean;
  /** namespace/project, for `pattern@namespace/project`. */
  projectPath: string;
  /** A merge request pipeline: only `merge_requests` matches there. */
  mergeRequest?: boolean;
}

function matchesPattern(raw: string, context: RefContext): boolean {
  const at = raw.indexOf('@');
  const pattern = at === -1 ? raw : raw.slice(0, at);
  if (at !== -1 && raw.slice(at + 1) !== context.projectPath) return false;
  if (context.mergeRequest) return pattern === 'merge_requests';
  if (context.tag && pattern === 'tags') return true;
  if (!context.tag && pattern === 'branches') return true;
  if (context.triggered && pattern === 'triggers') return true;
  if (isRegexpPattern(pattern)) return regexpMatches(pattern.slice(1, -1), context.ref);
  return pattern === context.ref;
}

/** GitLab's `process?`: the job runs for this ref. */
export function runsForRef(only: string[] | null, except: string[] | null, context: RefContext): boolean {
  // GitLab's default `only` is branches and tags: a merge request pipeline takes a job that asks for it.
  if (context.mergeRequest && !(only && only.length > 0)) return false;
  if (only && only.length > 0 && !only.some((pattern) => matchesPattern(pattern, context))) return false;
  if (except && except.length > 0 && except.some((pattern) => matchesPattern(pattern, context))) return false;
  return true;
}
