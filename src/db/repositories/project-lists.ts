// The project sets lists are made of. "Authorized" projects are those the user reaches through
// membership: direct project membership, personal namespace, group membership, or a group share (all
// unexpired). Every branch is an index lookup keyed by the user, so its cost follows the user's
// memberships, not the size of the projects table.
import { sql } from 'kysely';
import type { Executor } from './users.ts';
import { today } from './members.ts';

export function authorizedProjectIds(db: Executor, userId: number) {
  const day = today();
  return db
    .selectFrom('members as m')
    .select('m.source_id as id')
    .where('m.user_id', '=', userId)
    .where('m.source_type', '=', 'Project')
    .where(sql<boolean>`(m.expires_at is null or m.expires_at > ${day})`)
    .union(
      db
        .selectFrom('members as m')
        .innerJoin('projects as p', 'p.namespace_id', 'm.source_id')
        .select('p.id as id')
        .where('m.user_id', '=', userId)
        .where('m.source_type', '=', 'Namespace')
        .where(sql<boolean>`(m.expires_at is null or m.expires_at > ${day})`),
    )
    .union(
      db
        .selectFrom('namespaces as n')
        .innerJoin('projects as p', 'p.namespace_id', 'n.id')
        .select('p.id as id')
        .where('n.owner_id', '=', userId)
        .where('n.type', 'is', null),
    )
    .union(
      db
        .selectFrom('members as m')
        .innerJoin('project_group_links as l', 'l.group_id', 'm.source_id')
        .select('l.project_id as id')
        .where('m.user_id', '=', userId)
        .where('m.source_type', '=', 'Namespace')
        .where(sql<boolean>`(m.expires_at is null or m.expires_at > ${day})`)
        .where(sql<boolean>`(l.expires_at is null or l.expires_at > ${day})`),
    );
}
