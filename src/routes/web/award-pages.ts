// The thumbs up and down buttons of the issue and merge request pages (8.13's toggle_award_emoji): a
// second press takes the viewer's award back. Both go through the API's award services.
import type { Deps } from '../../deps.ts';
import { awardEmoji, removeAward, type Awardable } from '../../services/issues/award-emoji.ts';
import { normalizeEmojiName } from '../../lib/emoji.ts';
import { viewerAwards } from '../../views/note-views.ts';
import type { UserRow } from '../../db/types.ts';

export async function toggleAward(deps: Deps, viewer: UserRow, awardable: Awardable, rawName: string) {
  const name = normalizeEmojiName(rawName);
  const given = (await viewerAwards(deps, awardable.type, awardable.id, viewer.id)).find(
    (award) => award.name === name,
  );
  if (given) await removeAward(deps, viewer, given);
  else await awardEmoji(deps, viewer, awardable, name);
}
