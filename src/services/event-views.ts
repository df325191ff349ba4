// Presents a page of events with their authors and the import flag of their projects, batched.
import type { Deps } from '../deps.ts';
import type { EventRow } from '../db/repositories/events.ts';
import { usersByIds } from '../db/repositories/users-batch.ts';
import { importedProjectIds } from '../db/repositories/projects.ts';
import { presentEvent } from '../presenters/event.ts';

export async function presentEventPage(deps: Deps, events: EventRow[]) {
  if (events.length === 0) return [];
  const db = deps.db.kysely;
  const created = events.filter((e) => e.action === 1 && e.target_type === null && e.project_id !== null);
  const [authors, imported] = await Promise.all([
    usersByIds(
      db,
      events.map((e) => e.author_id),
    ),
    importedProjectIds(
      db,
      created.map((e) => e.project_id!),
    ),
  ]);
  return events.map((event) =>
    presentEvent(
      event,
      {
        author: authors.get(event.author_id) ?? null,
        imported: event.project_id !== null && imported.has(event.project_id),
      },
      deps.config.externalUrl,
    ),
  );
}
