// AccessRequester (UserBasic + requested_at), and what 8.13's deny answered: the removed request as
// the members row it was (Grape rendered the destroyed record itself).
import { presentUserBasic } from './user.ts';
import type { AccessRequestRow, UserRow } from '../../db/types.ts';

export function presentAccessRequester(user: UserRow, request: AccessRequestRow, baseUrl: string) {
  return Object.assign(presentUserBasic(user, baseUrl), { requested_at: request.requested_at });
}

export function presentDeniedAccessRequest(request: AccessRequestRow) {
  const project = request.project_id !== null;
  return {
    id: request.id,
    access_level: 30,
    source_id: project ? request.project_id : request.group_id,
    source_type: project ? 'Project' : 'Namespace',
    user_id: request.user_id,
    notification_level: 3,
    created_at: request.requested_at,
    updated_at: request.requested_at,
    created_by_id: null,
    invite_email: null,
    invite_accepted_at: null,
    requested_at: request.requested_at,
    type: project ? 'ProjectMember' : 'GroupMember',
  };
}
