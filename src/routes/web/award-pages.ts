// The thumbs up and down buttons of the issue and merge request pages (8.13's toggle_award_emoji): a
// second press takes the viewer's award back; and their subscribe button. All go through the API's
// award and subscription services.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { awardEmoji, removeAward, type Awardable } from '../../services/issues/award-emoji.ts';
import { normalizeEmojiName } from '../../lib/emoji.ts';
import { viewerAwards } from '../../views/note-views.ts';
import { changeSubscription, type Issuable } from '../../services/issues/issues.ts';
import { ApiError } from '../../errors.ts';
import type { UserRow } from '../../db/types.ts';
import { signedIn } from './page-params.ts';

/** Gives the viewer's award, or takes it back when they gave it already. */
export async function toggleAward(deps: Deps, viewer: UserRow, awardable: Awardable, rawName: string) {
  const name = normalizeEmojiName(rawName);
  const given = (await viewerAwards(deps, awardable.type, awardable.id, viewer.id)).find(
    (award) => award.name === name,
  );
  if (given) await removeAward(deps, viewer, given);
  else await awardEmoji(deps, viewer, awardable, name);
}

/** The button names the state it asks for, so a second press of a stale page changes nothing. */
async function setSubscribed(deps: Deps, viewer: UserRow, issuable: Issuable, subscribe: boolean) {
  try {
    await changeSubscription(deps, viewer, issuable, subscribe);
  } catch (error) {
    // The API's 304: already in the asked state.
    if (!(error instanceof ApiError && error.status === 304)) throw error;
  }
}

/** What the buttons of one issue or merge request page act on, and the page to go back to. */
export interface VoteTarget {
  url: string;
  awardable: Awardable;
  issuable: Issuable;
}

/** `…/<kind>/:iid/toggle_subscription` and `…/toggle_award_emoji` for issues or merge requests. */
export function registerVoteAndSubscriptionRoutes(
  web: FastifyInstance,
  deps: Deps,
  kind: 'issues' | 'merge_requests',
  load: (request: FastifyRequest) => Promise<VoteTarget>,
): void {
  web.post(`/:namespace/:project/${kind}/:iid/toggle_subscription`, async (request, reply) => {
    const target = await load(request);
    const subscribe = optionalString(requestParams(request), 'subscribe') === '1';
    await setSubscribed(deps, signedIn(request), target.issuable, subscribe);
    return reply.redirect(target.url, 302);
  });

  web.post(`/:namespace/:project/${kind}/:iid/toggle_award_emoji`, async (request, reply) => {
    const target = await load(request);
    const name = optionalString(requestParams(request), 'name') ?? '';
    await toggleAward(deps, signedIn(request), target.awardable, name);
    return reply.redirect(target.url, 302);
  });
}
