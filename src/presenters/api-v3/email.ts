// The Email entity: secondary emails only.
import type { EmailRow } from '../../db/types.ts';

export function presentEmail(email: EmailRow) {
  return { id: email.id, email: email.email };
}
