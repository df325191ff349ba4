// push_code (reference/internals.md §6.2): developers and up, and never into an archived project.
import type { ProjectRecord } from '../db/repositories/projects.ts';
import { canDevelopProject, type ProjectAccess } from './access.ts';

export const isArchived = (record: ProjectRecord): boolean => record.project.archived === 1;

export const canPushCode = (access: ProjectAccess, record: ProjectRecord): boolean =>
  canDevelopProject(access) && !isArchived(record);
