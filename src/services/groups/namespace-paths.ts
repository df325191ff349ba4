// The rule for namespace paths, which users (their username) and groups share: GitLab's
// NamespaceValidator (a character set, no leading '-', no trailing '.', '.git' or '.atom') and the
// paths its routes reserve.
const NAMESPACE_PATH = /^(?:[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*[a-zA-Z0-9_-]|[a-zA-Z0-9_])$/;

export const NAMESPACE_PATH_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";

export const RESERVED_NAMES = new Set([
  '.well-known',
  'admin',
  'all',
  'assets',
  'ci',
  'dashboard',
  'files',
  'groups',
  'help',
  'hooks',
  'issues',
  'merge_requests',
  'new',
  'notes',
  'profile',
  'projects',
  'public',
  'repository',
  'robots.txt',
  's',
  'search',
  'services',
  'snippets',
  'teams',
  'u',
  'unsubscribes',
  'users',
]);

export function isValidNamespacePath(value: string): boolean {
  return NAMESPACE_PATH.test(value) && !value.endsWith('.git') && !value.endsWith('.atom');
}
