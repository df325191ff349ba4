// What /profile/notifications shows: the global setting, then each group and project the user set a
// level for (8.13's notification_settings.for_groups / for_projects), each with its name (two batch reads).
import type { Deps } from '../deps.ts';
import { sourceSettingsOfUser } from '../db/repositories/notification-settings.ts';
import { groupsByIds } from '../db/repositories/namespaces.ts';
import { findProjectRecordsByIds } from '../db/repositories/projects.ts';
import { projectFullPath } from '../domain/paths.ts';
import { readNotificationSetting, type NotificationChoice } from '../services/mail/notification-levels.ts';
import type { UserRow } from '../db/types.ts';

export interface SourceSettingView {
  id: number;
  name: string;
  /** The page's path (a group's or a project's). */
  path: string;
  level: string;
}

export interface NotificationSettingsView {
  global: NotificationChoice;
  groups: SourceSettingView[];
  projects: SourceSettingView[];
}

export async function loadNotificationSettings(deps: Deps, user: UserRow): Promise<NotificationSettingsView> {
  const db = deps.db.kysely;
  const [global, rows] = await Promise.all([
    readNotificationSetting(deps, user, { type: 'Global', id: 0 }),
    sourceSettingsOfUser(db, user.id),
  ]);
  const levelOf = (type: string, id: number) =>
    rows.find((row) => row.source_type === type && row.source_id === id)!.level;
  const idsOf = (type: string) => rows.filter((row) => row.source_type === type).map((row) => row.source_id);
  const [groups, projects] = await Promise.all([
    groupsByIds(db, idsOf('Namespace')),
    findProjectRecordsByIds(db, idsOf('Project')),
  ]);
  return {
    global,
    groups: groups.map((group) => ({
      id: group.id,
      name: group.name,
      path: `/groups/${group.path}`,
      level: levelOf('Namespace', group.id),
    })),
    projects: projects.map((record) => ({
      id: record.project.id,
      name: `${record.namespace.name} / ${record.project.name}`,
      path: `/${projectFullPath(record)}`,
      level: levelOf('Project', record.project.id),
    })),
  };
}
