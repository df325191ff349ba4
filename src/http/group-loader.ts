// find_group (reference/api-v3.md §4.5, §7.10): by path first, then by id; a group that does not exist
// and one the caller may not read both answer 404 `404 Group Not Found`.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { findGroupById, findGroupByPath, type NamespaceRow } from '../db/repositories/namespaces.ts';
import { canReadGroup, groupAccess, type GroupAccess } from '../policies/groups.ts';
import { notFound } from './errors.ts';
import { pathId } from './params.ts';

export interface LoadedGroup {
  group: NamespaceRow;
  access: GroupAccess;
}

export async function findGroupByIdParam(deps: Deps, idParam: unknown): Promise<NamespaceRow | undefined> {
  const text = String(idParam ?? '');
  if (text === '') return undefined;
  const byPath = await findGroupByPath(deps.db.kysely, text);
  if (byPath) return byPath;
  const id = pathId(text);
  return id === undefined ? undefined : findGroupById(deps.db.kysely, id);
}

export async function loadGroup(
  deps: Deps,
  request: FastifyRequest,
  idParam: unknown = (request.params as Record<string, unknown>).id,
): Promise<LoadedGroup> {
  const group = await findGroupByIdParam(deps, idParam);
  if (!group) throw notFound('Group');
  const access = await groupAccess(deps.db.kysely, request.viewer, group);
  if (!(await canReadGroup(deps.db.kysely, request.viewer, group, access))) throw notFound('Group');
  return { group, access };
}
