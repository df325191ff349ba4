// Access requests on the pages as GitLab 8.13 had them: the "Request Access" or "Withdraw Access Request"
// button a signed-in non-member sees on a project's or group's page (where requests are allowed), and on
// the members page, for who manages members, the pending requests with Grant (at a chosen level) and
// Deny. `base` is the members path: `/<ns>/<p>/project_members` or `/groups/<g>/group_members`.
import { ActionButton, Csrf, type PageContext } from './layout.tsx';
import { LevelSelect } from './project-settings/repository-settings.tsx';
import { TimeAgo } from './projects.tsx';

export function AccessRequestButton(props: { ctx: PageContext; base: string; requested: boolean }) {
  return props.requested ? (
    <ActionButton ctx={props.ctx} action={`${props.base}/leave`} text="Withdraw Access Request" />
  ) : (
    <ActionButton ctx={props.ctx} action={`${props.base}/request_access`} text="Request Access" />
  );
}

export interface AccessRequestItem {
  userId: number;
  username: string;
  name: string;
  requestedAt: string;
}

export function AccessRequestList(props: {
  ctx: PageContext;
  base: string;
  /** What requests are to: the project's or group's name. */
  sourceName: string;
  requests: AccessRequestItem[];
  total: number;
  levels?: Array<[number, string]>;
}) {
  if (props.total === 0) return null;
  return (
    <section aria-label="Access requests">
      <h2>
        Users requesting access to <strong>{props.sourceName}</strong>{' '}
        <span class="badge">{props.total}</span>
      </h2>
      <ul class="list">
        {props.requests.map((request) => {
          const url = `${props.base}/${request.userId}`;
          return (
            <li>
              <div class="row">
                <span>
                  <strong>{request.name}</strong> <span class="muted">@{request.username}</span>{' '}
                  <span class="muted">
                    requested <TimeAgo at={request.requestedAt} />
                  </span>
                </span>
                <ActionButton
                  ctx={props.ctx}
                  action={`${url}/deny_access_request`}
                  text="Deny"
                  label={`Deny ${request.username}`}
                  danger
                />
              </div>
              <form class="searchbar" method="post" action={`${url}/approve_access_request`}>
                <Csrf ctx={props.ctx} />
                <LevelSelect
                  name="access_level"
                  value={30}
                  label={`Access level for ${request.username}`}
                  levels={props.levels}
                />
                <button type="submit" aria-label={`Grant access to ${request.username}`}>
                  Grant
                </button>
              </form>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
