// Contributor: GitLab 8.13 counted commits per author email and never filled in additions or deletions.
import type { Contributor } from '../../git/contributors.ts';

export function presentContributor(contributor: Contributor) {
  return {
    name: contributor.name,
    email: contributor.email,
    commits: contributor.commits,
    additions: 0,
    deletions: 0,
  };
}
