// The consistency check of an instance (npm run admin -- check): the database answers, every migration
// has run, the data dir belongs to this database, every project has its repository and every repository
// on disk belongs to a project. It reports; it never changes or deletes anything.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Deps } from '../../deps.ts';
import { describeDatabase } from '../../config.ts';
import { pingDatabase } from '../../db/repositories/database.ts';
import { pendingMigrations } from '../../db/migrations/index.ts';
import { listProjectLocations, projectPathsInNamespace } from '../../db/repositories/project-locations.ts';
import { findRepositoryCreation } from '../../db/repositories/repository-creations.ts';
import { readCreationMarker, repositoriesRoot, repositoryPath } from '../../git/repository.ts';
import { checkDatabaseIdentity } from './database-identity.ts';

export interface Finding {
  ok: boolean;
  text: string;
}

const PAGE = 500;

async function isRepository(dir: string): Promise<boolean> {
  try {
    await fs.access(path.join(dir, 'HEAD'));
    return true;
  } catch {
    return false;
  }
}

async function directories(dir: string): Promise<string[]> {
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Runs every check, reporting each finding as it comes; stops early only when the database is down. */
export async function* checkInstance(deps: Deps): AsyncGenerator<Finding> {
  const { config, db } = deps;
  const database = describeDatabase(config);
  try {
    await pingDatabase(db.kysely);
    yield { ok: true, text: `database ${database} answers` };
  } catch (error) {
    yield { ok: false, text: `database ${database} does not answer: ${(error as Error).message}` };
    return;
  }

  const pending = await pendingMigrations(db);
  yield pending.length === 0
    ? { ok: true, text: 'migrations: all have run' }
    : { ok: false, text: `migrations not run yet: ${pending.join(', ')} (the next server start runs them)` };

  const identity = await checkDatabaseIdentity({ db, dataDir: config.dataDir, database });
  if (identity.state === 'matching') {
    yield {
      ok: true,
      text: `data dir ${config.dataDir} belongs to this database (database-id ${identity.id})`,
    };
  } else if (identity.state === 'new') {
    yield {
      ok: true,
      text: `data dir ${config.dataDir} and the database are not stamped yet (the next start does it)`,
    };
  } else {
    yield { ok: false, text: identity.message };
    return;
  }

  let projects = 0;
  let missing = 0;
  for (let afterId = 0; ;) {
    const page = await listProjectLocations(db.kysely, afterId, PAGE);
    for (const project of page) {
      projects++;
      const repo = repositoryPath(config.dataDir, project.namespacePath, project.path);
      if (!(await isRepository(repo))) {
        missing++;
        yield {
          ok: false,
          text: `project ${project.namespacePath}/${project.path} (id ${project.id}): no repository at ${repo}`,
        };
      }
    }
    if (page.length < PAGE) break;
    afterId = page[page.length - 1].id;
  }
  if (missing === 0) yield { ok: true, text: `projects: all ${projects} have their repository` };

  const root = repositoriesRoot(config.dataDir);
  let repositories = 0;
  let unowned = 0;
  for (const namespaceDir of await directories(root)) {
    // Scratch clones of imports and forks in progress live in .tmp.
    if (namespaceDir.startsWith('.')) continue;
    const owned = new Set(
      (await projectPathsInNamespace(db.kysely, namespaceDir)).flatMap((p) => [`${p}.git`, `${p}.wiki.git`]),
    );
    for (const name of await directories(path.join(root, namespaceDir))) {
      repositories++;
      if (owned.has(name)) continue;
      unowned++;
      const dir = path.join(root, namespaceDir, name);
      const marker = await readCreationMarker(dir);
      const leftover = marker ? await findRepositoryCreation(db.kysely, marker) : undefined;
      yield {
        ok: false,
        text: leftover
          ? `${dir}: left by a project create that never finished (the next create of that path replaces it)`
          : `${dir} belongs to no project (left as it is; move it away if nobody needs it)`,
      };
    }
  }
  if (unowned === 0)
    yield { ok: true, text: `repositories: all ${repositories} on disk belong to a project` };
}
