// v4's AccessRequester: its UserBasic + requested_at.
import { presentUserBasic } from './user.ts';
import type { AccessRequestRow, UserRow } from '../../db/types.ts';

export function presentAccessRequester(user: UserRow, request: AccessRequestRow, baseUrl: string) {
  return Object.assign(presentUserBasic(user, baseUrl), { requested_at: request.requested_at });
}
