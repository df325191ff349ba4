// /admin/broadcast_messages: the messages (the API's v3 entity) with a remove button each, and a form
// for a new one (message, start and end as UTC date-times, colours).
import type { presentBroadcastMessage } from '../../api-v3/broadcast-message.ts';
import { ActionButton, Csrf, type Flash, type PageContext } from '../layout.tsx';
import { AdminFrame } from './frame.tsx';

type Message = ReturnType<typeof presentBroadcastMessage>;

export function AdminBroadcastMessagesPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  messages: Message[];
  typed?: Record<string, string>;
}) {
  const typed = props.typed ?? {};
  return (
    <AdminFrame ctx={props.ctx} tab="broadcast_messages" title="Broadcast messages" flash={props.flash}>
      <p>A broadcast message shows on every page between its start and its end (Markdown is rendered).</p>
      <h2>New broadcast message</h2>
      <form class="stack" method="post" action="/admin/broadcast_messages">
        <Csrf ctx={props.ctx} />
        <label>
          Message
          <textarea name="broadcast_message[message]" required rows={3}>
            {typed.message ?? ''}
          </textarea>
        </label>
        <label>
          Starts at (UTC, empty: now)
          <input
            type="text"
            name="broadcast_message[starts_at]"
            value={typed.starts_at ?? ''}
            placeholder="2016-10-22T10:00:00Z"
          />
        </label>
        <label>
          Ends at (UTC, empty: an hour from now)
          <input
            type="text"
            name="broadcast_message[ends_at]"
            value={typed.ends_at ?? ''}
            placeholder="2016-10-22T11:00:00Z"
          />
        </label>
        <label>
          Background colour
          <input type="text" name="broadcast_message[color]" value={typed.color ?? '#E75E40'} />
        </label>
        <label>
          Text colour
          <input type="text" name="broadcast_message[font]" value={typed.font ?? '#FFFFFF'} />
        </label>
        <div>
          <button type="submit" class="primary">
            Add broadcast message
          </button>
        </div>
      </form>
      <h2>Broadcast messages ({props.messages.length})</h2>
      {props.messages.length === 0 ? (
        <p class="muted">No broadcast messages.</p>
      ) : (
        <ul class="list" aria-label="Broadcast messages">
          {props.messages.map((message) => (
            <li class="row">
              <span>
                {message.message}{' '}
                <span class="muted">
                  {message.starts_at} – {message.ends_at}
                  {message.active ? ' (showing)' : ''}
                </span>
              </span>
              <ActionButton
                ctx={props.ctx}
                action={`/admin/broadcast_messages/${message.id}/delete`}
                text="Remove"
                label={`Remove broadcast message ${message.id}`}
                danger
              />
            </li>
          ))}
        </ul>
      )}
    </AdminFrame>
  );
}
