// Deploy tokens (GitLab's DeployToken): a project's or a group's named secret that clones over HTTP
// without a user. Only the SHA-256 of the secret is kept (hex), found by its unique index; the holder is
// the project or the group (exactly one; each goes with its tokens), and each leads the index that
// lists its tokens.
import { sql } from 'kysely';
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('deploy_tokens'), dialect)
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.references('namespaces.id').onDelete('cascade'))
    .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    // Null: the default `gitlab+deploy-token-<id>`.
    .addColumn('username', 'text')
    .addColumn('token_digest', 'text', (c) => c.notNull())
    // Space-separated, in GitLab's order.
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('deploy_tokens_one_holder', sql`(project_id is null) <> (group_id is null)`)
    .execute();
  await createIndex(db, 'deploy_tokens_token_digest', 'deploy_tokens', 'token_digest', { unique: true });
  await createIndex(db, 'deploy_tokens_project_id', 'deploy_tokens', 'project_id, id', {
    where: 'project_id is not null',
  });
  await createIndex(db, 'deploy_tokens_group_id', 'deploy_tokens', 'group_id, id', {
    where: 'group_id is not null',
  });
  await createIndex(db, 'deploy_tokens_creator_id', 'deploy_tokens', 'creator_id');
};
