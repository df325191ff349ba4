// A page of a commit's statuses: the rows, then their authors in one query, for either version's presenter.
import type { Deps } from '../deps.ts';
import {
  countCommitStatuses,
  listCommitStatuses,
  type CommitStatusFilter,
} from '../db/repositories/commit-statuses.ts';
import { usersByIds } from '../db/repositories/users.ts';
import type { CiBuildRow, UserRow } from '../db/types.ts';

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
  return rows.map((row): { status: CiBuildRow; author: UserRow | undefined } => ({
    status: row,
    author: row.user_id === null ? undefined : users.get(row.user_id),
  }));
}
