// v4's notification settings: GET/PUT /notification_settings (global, with notification_email),
// /groups/:id/notification_settings and /projects/:id/notification_settings. Levels are 8.13's
// disabled, participating, watch, global and mention (`custom` and its per-event switches are not kept).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadGroup, loadProject } from '../../http/loaders.ts';
import { requestParams } from '../../http/params.ts';
import { paramValueInvalid } from '../../errors.ts';
import {
  changeNotificationLevel,
  isNotificationLevel,
  readNotificationLevel,
  type NotificationSource,
} from '../../services/mail/notification-levels.ts';

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
    const answer = (level: string, email: string) =>
      kind === 'global' ? { level, notification_email: email } : { level };
    app.get(path, async (request) => {
      const viewer = requireViewer(request);
      const level = await readNotificationLevel(deps, viewer, await sourceOf(deps, request, kind));
      return answer(level, viewer.email);
    });
    app.put(path, async (request) => {
      const viewer = requireViewer(request);
      const source = await sourceOf(deps, request, kind);
      const { level } = requestParams(request);
      if (level !== undefined && !isNotificationLevel(level)) throw paramValueInvalid('level');
      const stored = isNotificationLevel(level)
        ? await changeNotificationLevel(deps, viewer, source, level)
        : await readNotificationLevel(deps, viewer, source);
      return answer(stored, viewer.email);
    });
  }
}
