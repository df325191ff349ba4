// Issues, labels, milestones, notes, award emoji, subscriptions and todos (GitLab 8.13's collaboration
// tables). Notes, award emoji, subscriptions, todos and label links are polymorphic (`*_type` +
// `*_id`, as GitLab's were), so merge requests join them later without reshaping anything; each also
// carries its project, so a project's deletion takes every row with it through foreign keys.
//
// iids come from internal_ids: one row per (project, usage) bumped with an upsert in the creating
// transaction, so two concurrent creates never share a number and a deleted issue's number is never
// reused. issue_counts holds each project's open and total issues, kept by triggers (every way an
// issue comes, goes or changes state, cascades included): open_issues_count of projects and X-Total of
// unfiltered issue lists then read one row at a million issues as at ten.
//
// `closed` mirrors state = 'closed': GitLab's `opened` filter means opened or reopened, and a list
// walks (project_id, closed, created_at|updated_at, id) for it instead of merging two state ranges.
import { sql } from 'kysely';
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await db.schema
    .createTable('internal_ids')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('usage', 'text', (c) => c.notNull())
    .addColumn('last_value', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('internal_ids_pkey', ['project_id', 'usage'])
    .execute();

  await withId(db.schema.createTable('milestones'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('due_date', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'milestones_project_iid', 'milestones', 'project_id, iid', { unique: true });
  await createIndex(db, 'milestones_project_title', 'milestones', 'project_id, title', { unique: true });
  await createIndex(db, 'milestones_project_state', 'milestones', 'project_id, state, id');

  await withId(db.schema.createTable('issues'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // GitLab 8.13 destroyed a user's issues with the user (has_many :issues, dependent: :destroy).
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('assignee_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('milestone_id', 'integer', (c) => c.references('milestones.id').onDelete('set null'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('closed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('confidential', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('due_date', 'text')
    .addColumn('moved_to_id', 'integer', (c) => c.references('issues.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'issues_project_iid', 'issues', 'project_id, iid', { unique: true });
  for (const order of ['created_at', 'updated_at']) {
    await createIndex(db, `issues_project_${order}`, 'issues', `project_id, ${order}, id`);
    await createIndex(db, `issues_project_closed_${order}`, 'issues', `project_id, closed, ${order}, id`);
    await createIndex(db, `issues_author_${order}`, 'issues', `author_id, ${order}, id`);
  }
  await createIndex(db, 'issues_assignee', 'issues', 'assignee_id');
  await createIndex(db, 'issues_updated_by', 'issues', 'updated_by_id');
  await createIndex(db, 'issues_milestone', 'issues', 'milestone_id, created_at, id');
  await createIndex(db, 'issues_moved_to', 'issues', 'moved_to_id');

  await withId(db.schema.createTable('labels'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'labels_project_title', 'labels', 'project_id, title', { unique: true });

  await withId(db.schema.createTable('label_links'), dialect)
    .addColumn('label_id', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'label_links_target', 'label_links', 'target_type, target_id, label_id', {
    unique: true,
  });
  await createIndex(db, 'label_links_label', 'label_links', 'label_id, target_type, target_id');

  await withId(db.schema.createTable('notes'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('noteable_type', 'text', (c) => c.notNull())
    .addColumn('noteable_id', 'integer')
    .addColumn('commit_id', 'text')
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('system', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attachment', 'text')
    .addColumn('line_code', 'text')
    .addColumn('updated_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'notes_noteable', 'notes', 'noteable_type, noteable_id, id');
  await createIndex(db, 'notes_project', 'notes', 'project_id, id');
  await createIndex(db, 'notes_author', 'notes', 'author_id');
  await createIndex(db, 'notes_updated_by', 'notes', 'updated_by_id');

  await withId(db.schema.createTable('award_emoji'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('awardable_type', 'text', (c) => c.notNull())
    .addColumn('awardable_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(
    db,
    'award_emoji_awardable',
    'award_emoji',
    'awardable_type, awardable_id, name, user_id',
    {
      unique: true,
    },
  );
  await createIndex(db, 'award_emoji_project', 'award_emoji', 'project_id');
  await createIndex(db, 'award_emoji_user', 'award_emoji', 'user_id');

  await withId(db.schema.createTable('subscriptions'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subscribable_type', 'text', (c) => c.notNull())
    .addColumn('subscribable_id', 'integer', (c) => c.notNull())
    .addColumn('subscribed', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(
    db,
    'subscriptions_subscribable',
    'subscriptions',
    'subscribable_type, subscribable_id, user_id',
    { unique: true },
  );
  await createIndex(db, 'subscriptions_project', 'subscriptions', 'project_id');
  await createIndex(db, 'subscriptions_user', 'subscriptions', 'user_id');

  await withId(db.schema.createTable('todos'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('note_id', 'integer', (c) => c.references('notes.id').onDelete('cascade'))
    .addColumn('action', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'todos_user_state', 'todos', 'user_id, state, id');
  await createIndex(db, 'todos_target', 'todos', 'target_type, target_id, user_id');
  await createIndex(db, 'todos_project', 'todos', 'project_id');
  await createIndex(db, 'todos_author', 'todos', 'author_id');
  await createIndex(db, 'todos_note', 'todos', 'note_id');

  await db.schema
    .createTable('issue_counts')
    .addColumn('project_id', 'integer', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('opened', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await countIssues(db, dialect);
};

async function countIssues(db: Parameters<MigrationFn>[0], dialect: Parameters<MigrationFn>[1]) {
  if (dialect === 'postgres') {
    // Statement triggers with transition tables: a multi-row insert or a cascade moves each count once.
    await sql`
      create function issue_counts_rows() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into issue_counts (project_id, opened, total)
            select project_id, count(*) filter (where closed = 0), count(*) from inserted group by project_id
            on conflict (project_id) do update set opened = issue_counts.opened + excluded.opened,
              total = issue_counts.total + excluded.total;
        elsif tg_op = 'DELETE' then
          update issue_counts c set opened = c.opened - d.opened, total = c.total - d.total
            from (select project_id, count(*) filter (where closed = 0) as opened, count(*) as total
                  from deleted group by project_id) d
            where c.project_id = d.project_id;
        end if;
        return null;
      end $$`.execute(db);
    await sql`
      create function issue_counts_state() returns trigger language plpgsql as $$
      begin
        update issue_counts set opened = opened + (case when new.closed = 0 then 1 else -1 end)
          where project_id = new.project_id;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger issues_counted_insert after insert on issues referencing new table as inserted
      for each statement execute function issue_counts_rows()`.execute(db);
    await sql`
      create trigger issues_counted_delete after delete on issues referencing old table as deleted
      for each statement execute function issue_counts_rows()`.execute(db);
    await sql`
      create trigger issues_counted_state after update of closed on issues
      for each row when (old.closed <> new.closed) execute function issue_counts_state()`.execute(db);
    return;
  }
  await sql`
    create trigger issues_counted_insert after insert on issues begin
      insert into issue_counts (project_id, opened, total) values (new.project_id, 1 - new.closed, 1)
      on conflict (project_id) do update set opened = opened + 1 - new.closed, total = total + 1; end`.execute(
    db,
  );
  await sql`
    create trigger issues_counted_delete after delete on issues begin
      update issue_counts set opened = opened - 1 + old.closed, total = total - 1
      where project_id = old.project_id; end`.execute(db);
  await sql`
    create trigger issues_counted_state after update of closed on issues when old.closed <> new.closed begin
      update issue_counts set opened = opened + (case when new.closed = 0 then 1 else -1 end)
      where project_id = new.project_id; end`.execute(db);
}
