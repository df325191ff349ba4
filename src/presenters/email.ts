// The Email entity (reference/api-v3.md §6.2): secondary emails only.
import type { EmailRow } from '../db/repositories/emails.ts';

export function presentEmail(email: EmailRow) {
  return { id: email.id, email: email.email };
}
