// Entities::Trigger as v4 shows it: id, description, owner; the whole token only to its owner (and for a
// trigger nobody owns), its first four characters to everyone else, as GitLab's short_token.
import type { CiTriggerRow, UserRow } from '../../db/types.ts';
import { presentUserBasic } from './user.ts';

export function presentTriggerV4(
  trigger: CiTriggerRow,
  lastUsed: string | null,
  owner: UserRow | null,
  viewerId: number,
  baseUrl: string,
) {
  const whole = trigger.owner_id === null || trigger.owner_id === viewerId;
  return {
    id: trigger.id,
    token: whole ? trigger.token : trigger.token.slice(0, 4),
    description: trigger.description,
    created_at: trigger.created_at,
    updated_at: trigger.updated_at,
    last_used: lastUsed,
    owner: owner ? presentUserBasic(owner, baseUrl) : null,
  };
}
