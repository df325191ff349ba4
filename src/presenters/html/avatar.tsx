// A person's (or project's, group's) picture on the pages: the uploaded avatar when there is one, else
// an identicon as GitLab 8.13 drew for projects: the name's first letter, upper-cased, on one of seven
// soft colours chosen by the id (id mod 7). Nothing is fetched from outside the site.
import { avatarPath, type AvatarOwner } from '../../domain/paths.ts';

const IDENTICON_COLOURS = 7;

export interface AvatarSubject {
  id: number;
  name: string;
  avatar?: string | null;
}

export function Avatar(props: { subject: AvatarSubject; owner?: AvatarOwner; size?: number }) {
  const { subject } = props;
  const size = props.size ?? 24;
  if (subject.avatar) {
    return (
      <img
        class={`avatar s${size}`}
        src={avatarPath(props.owner ?? 'user', subject.id, subject.avatar)}
        alt={`${subject.name}'s avatar`}
        width={size}
        height={size}
      />
    );
  }
  const letter = (Array.from(subject.name.trim())[0] ?? '?').toUpperCase();
  return (
    <span class={`avatar identicon s${size} bg${subject.id % IDENTICON_COLOURS}`} aria-hidden="true">
      {letter}
    </span>
  );
}

const UPLOADED_USER_AVATAR = /\/uploads\/user\/avatar\/\d+\/([^/?#]+)$/;

/**
 * A user as the API presents them (avatar_url absolute): their upload when avatar_url names one on this
 * site, else the identicon (a Gravatar address is never fetched by the pages).
 */
export function UserAvatar(props: {
  user: { id: number; name: string; avatar_url?: string | null };
  size?: number;
}) {
  const match = UPLOADED_USER_AVATAR.exec(props.user.avatar_url ?? '');
  const avatar = match ? decodeURIComponent(match[1]!) : null;
  return <Avatar subject={{ id: props.user.id, name: props.user.name, avatar }} size={props.size} />;
}
