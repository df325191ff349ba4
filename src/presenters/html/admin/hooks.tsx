// /admin/hooks: system hooks (add, test, remove) and each hook's delivery log with its attempts and a
// resend button. Hooks and deliveries are the API's shapes (presentSystemHook, presentDelivery).
import type { presentDelivery, presentSystemHook } from '../../api-v3/hooks.ts';
import { ActionButton, Csrf, type Flash, type PageContext } from '../layout.tsx';
import { Pager, TimeAgo } from '../projects.tsx';
import { AdminFrame } from './frame.tsx';

type SystemHook = ReturnType<typeof presentSystemHook>;
type Delivery = ReturnType<typeof presentDelivery>;

export function AdminHooksPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  hooks: SystemHook[];
  typedUrl?: string;
}) {
  return (
    <AdminFrame ctx={props.ctx} tab="hooks" title="System hooks" flash={props.flash}>
      <p>
        System hooks receive a POST for events of the whole instance: projects and users created or removed,
        members added or removed, pushes.
      </p>
      <h2>Add a system hook</h2>
      <form class="stack" method="post" action="/admin/hooks">
        <Csrf ctx={props.ctx} />
        <label>
          URL
          <input
            type="url"
            name="hook[url]"
            value={props.typedUrl ?? ''}
            required
            placeholder="http://example.com/hook"
          />
        </label>
        <div>
          <button type="submit" class="primary">
            Add system hook
          </button>
        </div>
      </form>
      <h2>System hooks ({props.hooks.length})</h2>
      {props.hooks.length === 0 ? (
        <p class="muted">No system hooks.</p>
      ) : (
        <ul class="list" aria-label="System hooks">
          {props.hooks.map((hook) => (
            <li class="row">
              <span>
                <a href={`/admin/hooks/${hook.id}`} class="mono">
                  {hook.url}
                </a>{' '}
                <span class="muted">
                  added <TimeAgo at={hook.created_at} />
                </span>
              </span>
              <span>
                <ActionButton
                  ctx={props.ctx}
                  action={`/admin/hooks/${hook.id}/test`}
                  text="Test"
                  label={`Test ${hook.url}`}
                />
                <ActionButton
                  ctx={props.ctx}
                  action={`/admin/hooks/${hook.id}/delete`}
                  text="Remove"
                  label={`Remove ${hook.url}`}
                  danger
                />
              </span>
            </li>
          ))}
        </ul>
      )}
    </AdminFrame>
  );
}

function Attempts(props: { delivery: Delivery }) {
  if (props.delivery.attempts.length === 0) return <span class="muted">not tried yet</span>;
  return (
    <ol>
      {props.delivery.attempts.map((attempt) => (
        <li>
          <TimeAgo at={attempt.attempted_at} />:{' '}
          {attempt.status_code !== null ? `HTTP ${attempt.status_code}` : (attempt.error ?? 'no answer')} in{' '}
          {attempt.duration_ms} ms
        </li>
      ))}
    </ol>
  );
}

export function AdminHookPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  hook: SystemHook;
  deliveries: Delivery[];
  total: number;
  page: number;
  hasNext: boolean;
}) {
  const { hook } = props;
  return (
    <AdminFrame ctx={props.ctx} tab="hooks" title="System hook" flash={props.flash}>
      <p class="mono">{hook.url}</p>
      <div class="row">
        <span class="muted">
          added <TimeAgo at={hook.created_at} />
        </span>
        <span>
          <ActionButton ctx={props.ctx} action={`/admin/hooks/${hook.id}/test`} text="Test hook" />
          <ActionButton ctx={props.ctx} action={`/admin/hooks/${hook.id}/delete`} text="Remove hook" danger />
        </span>
      </div>
      <h2>Deliveries ({props.total})</h2>
      {props.deliveries.length === 0 ? (
        <p class="muted">Nothing was sent to this hook yet.</p>
      ) : (
        <div class="table-wrap">
          <table aria-label="Deliveries">
            <thead>
              <tr>
                <th scope="col">Delivery</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Payload</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {props.deliveries.map((delivery) => (
                <tr>
                  <td>
                    #{delivery.id}{' '}
                    <span class="muted">
                      <TimeAgo at={delivery.created_at} />
                    </span>
                  </td>
                  <td>{delivery.event}</td>
                  <td>
                    <span class="badge">{delivery.status}</span>
                    {delivery.next_attempt_at ? (
                      <>
                        {' '}
                        next try <TimeAgo at={delivery.next_attempt_at} />
                      </>
                    ) : null}
                  </td>
                  <td>
                    <Attempts delivery={delivery} />
                  </td>
                  <td>
                    <details>
                      <summary>Show</summary>
                      <pre>{JSON.stringify(delivery.payload, null, 2)}</pre>
                    </details>
                  </td>
                  <td>
                    <ActionButton
                      ctx={props.ctx}
                      action={`/admin/hooks/${hook.id}/deliveries/${delivery.id}/resend`}
                      text="Resend"
                      label={`Resend delivery ${delivery.id}`}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager base={`/admin/hooks/${hook.id}`} query={{}} page={props.page} hasNext={props.hasNext} />
    </AdminFrame>
  );
}
