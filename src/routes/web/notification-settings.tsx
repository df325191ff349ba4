// The notification pages (GitLab 8.13's Profiles::NotificationsController and
// NotificationSettingsController): /profile/notifications shows and sets the global level and custom's
// switches; POST /notification_settings sets a project's or group's level from its page or the profile
// page, for a reader of it only (else 404), and goes back where it came from.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { notFound, paramValueInvalid, unauthorized } from '../../errors.ts';
import { loadGroupById, readableProjectByIdParam } from '../../http/loaders.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import {
  changeNotificationSetting,
  isNotificationLevel,
  type NotificationChoice,
  type NotificationSource,
} from '../../services/mail/notification-levels.ts';
import { CUSTOM_EVENTS } from '../../services/mail/recipients.ts';
import { loadNotificationSettings } from '../../views/notification-views.ts';
import { NotificationsPage } from '../../presenters/html/notifications.tsx';
import type { UserRow } from '../../db/types.ts';
import { pageContext } from './web-session.ts';
import { doneNotice } from './form-errors.ts';
import { safeReturnPath, sendPage } from './render.ts';

function viewerOf(request: FastifyRequest): UserRow {
  if (!request.viewer) throw unauthorized();
  return request.viewer;
}

function chosenLevel(request: FastifyRequest) {
  const level = optionalString(requestParams(request), 'notification_setting[level]');
  if (!isNotificationLevel(level)) throw paramValueInvalid('level');
  return level;
}

export function registerNotificationSettings(web: FastifyInstance, deps: Deps): void {
  web.get('/profile/notifications', async (request, reply) => {
    const user = viewerOf(request);
    const settings = await loadNotificationSettings(deps, user);
    return sendPage(
      reply,
      <NotificationsPage
        ctx={pageContext(deps, request, reply)}
        flash={doneNotice(request, { saved: 'Notification settings saved' })}
        email={user.email}
        settings={settings}
      />,
    );
  });

  // The global form sends every switch: a box left unticked is off.
  web.post('/profile/notifications', async (request, reply) => {
    const user = viewerOf(request);
    const level = chosenLevel(request);
    const params = requestParams(request);
    const switches = Object.fromEntries(
      CUSTOM_EVENTS.map((event) => [event, params[`notification_setting[${event}]`] === 'true']),
    ) as NotificationChoice['events'];
    await changeNotificationSetting(deps, user, { type: 'Global', id: 0 }, level, switches);
    return reply.redirect('/profile/notifications?done=saved', 302);
  });

  web.post('/notification_settings', async (request, reply) => {
    const user = viewerOf(request);
    const params = requestParams(request);
    const level = chosenLevel(request);
    let source: NotificationSource;
    if (params.project_id !== undefined) {
      const loaded = await readableProjectByIdParam(deps, user, params.project_id);
      if (!loaded) throw notFound('Project');
      source = { type: 'Project', id: loaded.project.id };
    } else {
      const id = Number(optionalString(params, 'namespace_id'));
      const { group } = await loadGroupById(deps, user, Number.isSafeInteger(id) ? id : undefined);
      source = { type: 'Namespace', id: group.id };
    }
    await changeNotificationSetting(deps, user, source, level);
    return reply.redirect(safeReturnPath(optionalString(params, 'return_to')), 302);
  });
}
