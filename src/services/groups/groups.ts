// Groups: create (the creator becomes its owner), edit (a path change moves the group's repositories and
// uploads), delete (its projects go with it, as GitLab's DestroyGroupService did), with the Namespace
// model's validations.
import type { Deps } from '../../deps.ts';
import { announceGroupCreate, announceGroupDestroy } from '../hooks/system-hook-announcements.ts';
import {
  deleteGroupRow,
  GROUP_TYPE,
  insertNamespace,
  isNamespaceNameTaken,
  isNamespacePathTaken,
  updateNamespace,
} from '../../db/repositories/namespaces.ts';
import { insertMember } from '../../db/repositories/members.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { now } from '../../lib/clock.ts';
import { failedWith, ValidationErrors, validationFailed } from '../../errors.ts';
import { AccessLevel, VISIBILITY_NAMES } from '../../domain/types.ts';
import { repositoriesRoot } from '../../git/repository.ts';
import { moveUploadsDir, namespaceUploadsDir } from '../../storage/uploads.ts';
import { removeAvatars } from '../../storage/avatars.ts';
import { isValidNamespacePath, NAMESPACE_PATH_MESSAGE, RESERVED_NAMES } from './namespace-paths.ts';
import { deleteProject } from '../projects/projects.ts';
import { findProjectRecordsByIds, hasProjectAboveVisibility } from '../../db/repositories/projects.ts';
import { namespaceProjectIds } from '../../db/repositories/group-projects.ts';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Executor, NamespaceRow, UserRow } from '../../db/types.ts';

const NAMESPACE_NAME = /^[\p{L}\p{N}\p{Pd}_. ]*$/u;
const NAMESPACE_NAME_MESSAGE = "can contain only letters, digits, '_', '.', dash and space.";

export interface GroupAttributes {
  name?: string;
  path?: string;
  description?: string;
  visibility_level?: number;
  lfs_enabled?: boolean;
  request_access_enabled?: boolean;
}

/** The Namespace/Group model's validations, in GitLab's field order (name, description, path, visibility). */
async function validateGroup(
  db: Executor,
  attrs: GroupAttributes,
  existing?: NamespaceRow,
): Promise<ValidationErrors> {
  const errors = new ValidationErrors();
  if (attrs.name !== undefined) {
    const name = attrs.name;
    if (name.length > 255) errors.add('name', 'is too long (maximum is 255 characters)');
    if (!NAMESPACE_NAME.test(name)) errors.add('name', NAMESPACE_NAME_MESSAGE);
    if (name.trim() === '') errors.add('name', "can't be blank");
    else if (name !== existing?.name && (await isNamespaceNameTaken(db, name, existing?.id)))
      errors.add('name', 'has already been taken');
  }
  if (attrs.description !== undefined && attrs.description.length > 255)
    errors.add('description', 'is too long (maximum is 255 characters)');
  if (attrs.path !== undefined) {
    const value = attrs.path;
    if (value.length < 1) errors.add('path', 'is too short (minimum is 1 character)');
    if (value.length > 255) errors.add('path', 'is too long (maximum is 255 characters)');
    if (value.length > 0 && !isValidNamespacePath(value)) errors.add('path', NAMESPACE_PATH_MESSAGE);
    if (RESERVED_NAMES.has(value)) errors.add('path', `${value} is a reserved name`);
    if (value.trim() === '') errors.add('path', "can't be blank");
    else if (
      value.toLowerCase() !== existing?.path.toLowerCase() &&
      (await isNamespacePathTaken(db, value, existing?.id))
    )
      errors.add('path', 'has already been taken');
  }
  if (attrs.visibility_level !== undefined) {
    const level = attrs.visibility_level;
    if (!(level in VISIBILITY_NAMES)) errors.add('visibility_level', 'is not included in the list');
    else if (existing) {
      if (await hasProjectAboveVisibility(db, existing.id, level))
        errors.add(
          'visibility_level',
          `${VISIBILITY_NAMES[level]} is not allowed since there are projects with higher visibility.`,
        );
    }
  }
  return errors;
}

const failedToSave = (errors: Record<string, string[]>) => failedWith('Failed to save group', errors);

export async function createGroup(
  deps: Deps,
  creator: UserRow,
  attrs: GroupAttributes & { name: string; path: string },
): Promise<NamespaceRow> {
  const errors = await validateGroup(deps.db.kysely, attrs);
  if (!errors.empty) throw failedToSave(errors.errors);
  const at = now();
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      const group = await insertNamespace(trx, {
        name: attrs.name,
        path: attrs.path,
        owner_id: null,
        type: GROUP_TYPE,
        description: attrs.description ?? '',
        visibility_level: attrs.visibility_level ?? 20,
        request_access_enabled: attrs.request_access_enabled ? 1 : 0,
        lfs_enabled: attrs.lfs_enabled === false ? 0 : 1,
        share_with_group_lock: 0,
        created_at: at,
        updated_at: at,
      });
      const owner = await insertMember(trx, {
        sourceType: 'Namespace',
        sourceId: group.id,
        userId: creator.id,
        accessLevel: AccessLevel.Owner,
        createdById: creator.id,
      });
      await announceGroupCreate(trx, group, owner, creator);
      return group;
    });
  } catch (error) {
    // A concurrent create took the path between the check and the insert.
    if (isUniqueViolation(error)) throw failedToSave({ path: ['has already been taken'] });
    throw error;
  }
}

export async function updateGroup(
  deps: Deps,
  group: NamespaceRow,
  attrs: GroupAttributes,
): Promise<NamespaceRow> {
  const errors = await validateGroup(deps.db.kysely, attrs, group);
  errors.throwIfAny();
  const values: Partial<NamespaceRow> = {};
  if (attrs.name !== undefined) values.name = attrs.name;
  if (attrs.path !== undefined) values.path = attrs.path;
  if (attrs.description !== undefined) values.description = attrs.description;
  if (attrs.visibility_level !== undefined) values.visibility_level = attrs.visibility_level;
  if (attrs.lfs_enabled !== undefined) values.lfs_enabled = attrs.lfs_enabled ? 1 : 0;
  if (attrs.request_access_enabled !== undefined)
    values.request_access_enabled = attrs.request_access_enabled ? 1 : 0;
  if (Object.keys(values).length === 0) return group;
  const moving = attrs.path !== undefined && attrs.path.toLowerCase() !== group.path.toLowerCase();
  const dataDir = deps.config.dataDir;
  const moves = moving
    ? [
        [
          path.join(repositoriesRoot(dataDir), group.path.toLowerCase()),
          path.join(repositoriesRoot(dataDir), attrs.path!.toLowerCase()),
        ],
        [namespaceUploadsDir(dataDir, group.path), namespaceUploadsDir(dataDir, attrs.path!)],
      ]
    : [];
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      const updated = await updateNamespace(trx, group.id, { ...values, updated_at: now() });
      // The folders move inside the transaction: if a move fails, the rename is rolled back.
      const done: string[][] = [];
      try {
        for (const [from, to] of moves) {
          await moveUploadsDir(from, to);
          done.push([from, to]);
        }
      } catch (error) {
        for (const [from, to] of done.reverse()) await moveUploadsDir(to, from);
        throw error;
      }
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw validationFailed({ path: ['has already been taken'] });
    throw error;
  }
}

/**
 * Deletes a group with its projects (each through the project delete: rows, repository, uploads), its
 * memberships and shares, as GitLab's DestroyGroupService did, then the group's folders and avatar.
 */
export async function deleteGroup(deps: Deps, group: NamespaceRow): Promise<void> {
  const db = deps.db.kysely;
  const ids = await namespaceProjectIds(db, group.id);
  for (const record of await findProjectRecordsByIds(db, ids)) await deleteProject(deps, record);
  const cascaded = await db.transaction().execute(async (trx) => {
    await announceGroupDestroy(trx, group);
    // Projects created meanwhile cascade with the namespace row; their folders go with the group's below.
    const late = await namespaceProjectIds(trx, group.id);
    await deleteGroupRow(trx, group.id);
    return late;
  });
  const { dataDir } = deps.config;
  await fs.rm(path.join(repositoriesRoot(dataDir), group.path.toLowerCase()), {
    recursive: true,
    force: true,
  });
  await fs.rm(namespaceUploadsDir(dataDir, group.path), { recursive: true, force: true });
  for (const id of cascaded) await removeAvatars(dataDir, 'project', id);
  await removeAvatars(dataDir, 'group', group.id);
}
