// `include: template:` names a file of GitLab's template library (`<name>.gitlab-ci.yml`). This server
// has no copy of that library: it keeps the few workflow templates below, written here from what they
// are documented to do, and answers GitLab's own error for any other name.
//
// Workflows/MergeRequest-Pipelines: pipelines for merge requests, tags and the default branch only.
// Workflows/Branch-Pipelines: pipelines for tags and every branch, none for merge requests.
const TEMPLATES: Record<string, string> = {
  'Workflows/MergeRequest-Pipelines.gitlab-ci.yml': `workflow:
  rules:
    - if: $CI_MERGE_REQUEST_IID
    - if: $CI_COMMIT_TAG
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Workflows/Branch-Pipelines.gitlab-ci.yml': `workflow:
  rules:
    - if: $CI_COMMIT_TAG
    - if: $CI_COMMIT_BRANCH
`,
};

const SUFFIX = '.gitlab-ci.yml';

/** A template's text, or GitLab's error for a name that is not one. */
export function ciTemplate(name: string): { text: string } | { error: string } {
  if (!name.endsWith(SUFFIX)) return { error: `Template file \`${name}\` is not a valid location!` };
  const text = TEMPLATES[name];
  return text === undefined ? { error: `Included file \`${name}\` is empty or does not exist!` } : { text };
}
