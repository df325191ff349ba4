// Inline pieces many pages share: a user's name linking to their page, Markdown rendered safely, and a
// counted noun.
import { RawHtml } from './raw-html.tsx';
import { renderCommentMarkdown, type CommentRenderOptions } from './markdown.ts';

export interface UserBasic {
  id: number;
  username: string;
  name: string;
  /** As the API presents it: an uploaded avatar is drawn, anything else is an identicon. */
  avatar_url?: string | null;
}

/** "1 addition", "2 additions": GitLab's pluralize. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export function UserLink(props: { user: UserBasic }) {
  return (
    <a href={`/${props.user.username}`} title={`@${props.user.username}`}>
      {props.user.name}
    </a>
  );
}

/** The references of a page resolved for its reader (views/reference-views.ts). */
export type PageReferences = CommentRenderOptions['references'];

/**
 * A description or comment: Markdown rendered safely with the page's references linked, or a muted
 * placeholder.
 */
export function MarkdownBlock(props: {
  text: string | null;
  empty?: string;
  references?: PageReferences;
  tasks?: boolean;
}) {
  if (!props.text || props.text.trim() === '') {
    return props.empty ? <p class="muted">{props.empty}</p> : null;
  }
  return (
    <RawHtml
      class="md"
      html={renderCommentMarkdown(props.text, { references: props.references, tasks: props.tasks })}
    />
  );
}
