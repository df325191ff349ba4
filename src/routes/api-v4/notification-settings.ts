// v4's notification settings: GET/PUT /notification_settings (global, with notification_email),
// /groups/:id/notification_settings and /projects/:id/notification_settings. Levels are 8.13's
// disabled, participating, watch, global, mention and custom; custom's switches (`new_note=true` …) are
// taken as booleans and shown as `events` while the level is custom, as GitLab's entity does.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadGroup, loadProject } from '../../http/loaders.ts';
import { requestParams } from '../../http/params.ts';
import { paramValueInvalid } from '../../errors.ts';
import {
  changeNotificationSetting,
  isNotificationLevel,
  readNotificationSetting,
  type NotificationChoice,
  type NotificationSource,
} from '../../services/mail/notification-levels.ts';
import { CUSTOM_EVENTS } from '../../services/mail/recipients.ts';

async function sourceOf(deps: Deps, request: FastifyRequest, kind: 'global' | 'group' | 'project') {
  if (kind === 'global') return { type: 'Global', id: 0 } as NotificationSource;
  if (kind === 'group')
    return { type: 'Namespace', id: (await loadGroup(deps, request)).group.id } as NotificationSource;
  return { type: 'Project', id: (await loadProject(deps, request)).project.id } as NotificationSource;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const paths = [
    ['global', '/notification_settings'],
    ['group', '/groups/:id/notification_settings'],
    ['project', '/projects/:id/notification_settings'],
  ] as const;
  for (const [kind, path] of paths) {
    // The global setting also names the address mail goes to (the primary one; no other is kept).
    const answer = (choice: NotificationChoice, email: string) => ({
      level: choice.level,
      notification_email: kind === 'global' ? email : undefined,
      events: choice.level === 'custom' ? choice.events : undefined,
    });
    app.get(path, async (request) => {
      const viewer = requireViewer(request);
      const choice = await readNotificationSetting(deps, viewer, await sourceOf(deps, request, kind));
      return answer(choice, viewer.email);
    });
    app.put(path, async (request) => {
      const viewer = requireViewer(request);
      const source = await sourceOf(deps, request, kind);
      const params = requestParams(request);
      const { level } = params;
      if (level !== undefined && !isNotificationLevel(level)) throw paramValueInvalid('level');
      const switches: Partial<NotificationChoice['events']> = {};
      for (const event of CUSTOM_EVENTS) {
        const value = params[event];
        if (value === undefined) continue;
        if (![true, false, 'true', 'false'].includes(value as never)) throw paramValueInvalid(event);
        switches[event] = value === true || value === 'true';
      }
      const current = await readNotificationSetting(deps, viewer, source);
      const chosen = isNotificationLevel(level) ? level : current.level;
      const changed =
        level !== undefined || Object.keys(switches).length > 0
          ? await changeNotificationSetting(deps, viewer, source, chosen, switches)
          : current;
      return answer(changed, viewer.email);
    });
  }
}
