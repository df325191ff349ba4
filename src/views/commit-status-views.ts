// A page of a commit's statuses: the rows, then their authors in one query, then presenters.
import type { Deps } from '../deps.ts';
import {
  countCommitStatuses,
  listCommitStatuses,
  type CommitStatusFilter,
} from '../db/repositories/commit-statuses.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { presentCommitStatus } from '../presenters/api-v3/commit-status.ts';

export type { CommitStatusFilter };

export function countCommitStatusList(deps: Deps, filter: CommitStatusFilter): Promise<number> {
  return countCommitStatuses(deps.db.kysely, filter);
}

export async function listCommitStatusesPage(
  deps: Deps,
  filter: CommitStatusFilter,
  page: { limit: number; offset: number },
) {
  const rows = await listCommitStatuses(deps.db.kysely, filter, page);
  const users = await usersByIds(
    deps.db.kysely,
    rows.map((row) => row.user_id).filter((id): id is number => id !== null),
  );
  return rows.map((row) =>
    presentCommitStatus(
      row,
      filter.sha,
      row.user_id === null ? undefined : users.get(row.user_id),
      deps.config.externalUrl,
    ),
  );
}
