// The administrators' overview: how much the instance holds. Each count is cheap at any size: projects
// and builds are the trigger-kept counters summed (project_counts, ci_list_counts), users, groups and
// runners a count(*) over an index (primary key; namespaces by type), hook deliveries waiting a count
// over the pending index.
import type { Deps } from '../deps.ts';
import { countUsers } from '../db/repositories/users.ts';
import { countGroups } from '../db/repositories/namespaces.ts';
import { countRunners } from '../db/repositories/runners.ts';
import { countAllBuilds } from '../db/repositories/pipelines.ts';
import { countPendingDeliveries } from '../db/repositories/hook-deliveries.ts';
import { countProjectList } from './project-views.ts';

export interface InstanceCounts {
  users: number;
  projects: number;
  groups: number;
  runners: number;
  builds: number;
  pendingDeliveries: number;
}

export async function loadInstanceCounts(deps: Deps): Promise<InstanceCounts> {
  const db = deps.db.kysely;
  const [users, projects, groups, runners, builds, pendingDeliveries] = await Promise.all([
    countUsers(db, {}),
    countProjectList(deps, {
      scope: 'all',
      viewerId: 0,
      external: false,
      searchDescription: false,
      orderBy: 'id',
      sort: 'desc',
    }),
    countGroups(db, {}),
    countRunners(db, { kind: 'all' }, { onlineSince: new Date().toISOString() }),
    countAllBuilds(db),
    countPendingDeliveries(db),
  ]);
  return { users, projects, groups, runners, builds, pendingDeliveries };
}
