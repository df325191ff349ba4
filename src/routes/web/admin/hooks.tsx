// /admin/hooks: system hooks and their delivery log through the same services and views as the API's
// /hooks routes and Labrador's /hooks/:id/deliveries. Forms without script can only POST: test, remove
// and resend are POSTs to /admin/hooks/<id>/test, /delete and /deliveries/<id>/resend (8.13 tested with
// GET and removed with DELETE).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { ApiError, notFound } from '../../../errors.ts';
import { optionalString, pathId, requestParams } from '../../../http/params.ts';
import { createSystemHook, destroySystemHook, testSystemHook } from '../../../services/hooks/system-hooks.ts';
import { resendDelivery } from '../../../services/hooks/hook-deliveries.ts';
import { validHookUrl } from '../../../services/hooks/hook-url.ts';
import {
  countHookDeliveryList,
  listHookDeliveriesPage,
  loadSystemHookOr404,
  systemHookList,
} from '../../../views/hook-views.ts';
import { presentSystemHook } from '../../../presenters/api-v3/hooks.ts';
import type { Flash } from '../../../presenters/html/layout.tsx';
import { AdminHookPage, AdminHooksPage } from '../../../presenters/html/admin/hooks.tsx';
import { pageContext } from '../web-session.ts';
import { sendPage } from '../render.ts';
import { pageNumber } from '../paging.ts';
import { doneNotice, errorText } from '../form-errors.ts';

const DELIVERIES_PER_PAGE = 20;

const DONE: Record<string, string> = {
  added: 'The system hook was added.',
  removed: 'The system hook was removed.',
  tested: 'A test delivery was queued; it appears in the log below.',
  resent: 'The delivery was queued again.',
};

function hookIdOf(request: FastifyRequest): number {
  const id = pathId((request.params as { id: string }).id);
  if (id === undefined) throw notFound('System hook');
  return id;
}

export function registerAdminHooks(admin: FastifyInstance, deps: Deps): void {
  const hooksPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    flash: Flash | null,
    typedUrl?: string,
    status = 200,
  ) =>
    sendPage(
      reply,
      <AdminHooksPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        hooks={(await systemHookList(deps)).map(presentSystemHook)}
        typedUrl={typedUrl}
      />,
      status,
    );

  admin.get('/admin/hooks', async (request, reply) => hooksPage(request, reply, doneNotice(request, DONE)));

  admin.post('/admin/hooks', async (request, reply) => {
    const url = (optionalString(requestParams(request), 'hook[url]') ?? '').trim();
    const again = (text: string) => hooksPage(request, reply, { kind: 'alert', text }, url, 422);
    // The service answers a bad URL with 8.13's bare 404; the form says what is wrong instead.
    if (url === '' || validHookUrl(url) === undefined) return again('URL is invalid');
    try {
      await createSystemHook(deps, url);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return again(errorText(error));
    }
    return reply.redirect('/admin/hooks?done=added', 302);
  });

  admin.get('/admin/hooks/:id', async (request, reply) => {
    const hook = await loadSystemHookOr404(deps, hookIdOf(request));
    const page = pageNumber(request);
    const offset = (page - 1) * DELIVERIES_PER_PAGE;
    const [total, deliveries] = await Promise.all([
      countHookDeliveryList(deps, 'system', hook.id),
      listHookDeliveriesPage(deps, 'system', hook.id, { offset, limit: DELIVERIES_PER_PAGE }),
    ]);
    return sendPage(
      reply,
      <AdminHookPage
        ctx={pageContext(deps, request, reply)}
        flash={doneNotice(request, DONE)}
        hook={presentSystemHook(hook)}
        deliveries={deliveries}
        total={total}
        page={page}
        hasNext={offset + deliveries.length < total}
      />,
    );
  });

  admin.post('/admin/hooks/:id/test', async (request, reply) => {
    const id = hookIdOf(request);
    await testSystemHook(deps, id);
    return reply.redirect(`/admin/hooks/${id}?done=tested`, 302);
  });

  admin.post('/admin/hooks/:id/delete', async (request, reply) => {
    await destroySystemHook(deps, hookIdOf(request));
    return reply.redirect('/admin/hooks?done=removed', 302);
  });

  admin.post('/admin/hooks/:id/deliveries/:delivery_id/resend', async (request, reply) => {
    const hook = await loadSystemHookOr404(deps, hookIdOf(request));
    const deliveryId = pathId((request.params as { delivery_id: string }).delivery_id);
    if (deliveryId === undefined) throw notFound('Hook delivery');
    await resendDelivery(deps, 'system', hook.id, deliveryId);
    return reply.redirect(`/admin/hooks/${hook.id}?done=resent`, 302);
  });
}
