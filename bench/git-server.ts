// A Labrador server for bench/git-clone.mjs, in its own process so its memory can be measured alone.
// Usage: node --import tsx bench/git-server.ts <data-dir> <port> <name>=<bare-repo>…
// Each bare repository becomes the private project root/<name> (copied with `git clone --bare`), then
// the server listens and prints "READY <port>". With BENCH_SSH_PORT (and BENCH_SSH_KEY, a public key
// added to root) the built-in SSH server listens there too. The projects named in BENCH_PROTECT
// (comma-separated) get their master protected, as GitLab's default protection does after a first push,
// so their pushes run the pre-receive hook. With LABRADOR_DATABASE_URL it runs on that PostgreSQL
// database (which should be empty) instead of SQLite.
import crypto from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { findUserByUsername } from '../src/db/repositories/users.ts';
import {
  findPersonalNamespace,
  insertProject,
  NEW_PROJECT_SWITCHES,
} from '../src/db/repositories/projects.ts';
import { cloneBareRepository, repositoryPath } from '../src/git/repository.ts';
import { insertProtectedBranchIfMissing } from '../src/db/repositories/protected-branches.ts';
import { now } from '../src/lib/clock.ts';
import { createKey } from '../src/services/users/keys.ts';
import { startSshServer } from '../src/ssh/server.ts';

const [dataDir, port, ...repos] = process.argv.slice(2);
const config = loadConfig({
  LABRADOR_DATA_DIR: dataDir,
  LABRADOR_PORT: port,
  LABRADOR_ROOT_PASSWORD: 'bench-password-1234',
  LABRADOR_ROOT_TOKEN: 'bench-token',
  LABRADOR_LOG_LEVEL: 'warn',
  LABRADOR_SSH_PORT: process.env.BENCH_SSH_PORT ?? '0',
  ...(process.env.LABRADOR_DATABASE_URL ? { LABRADOR_DATABASE_URL: process.env.LABRADOR_DATABASE_URL } : {}),
});
const server = await startServer(config, pino({ level: 'warn' }));
const db = server.deps.db.kysely;
const root = (await findUserByUsername(db, 'root'))!;
const namespace = (await findPersonalNamespace(db, root.id))!;
for (const spec of repos) {
  const [name, source] = spec.split('=');
  const at = now();
  const project = await insertProject(db, {
    namespace_id: namespace.id,
    creator_id: root.id,
    name,
    path: name,
    description: null,
    default_branch: 'master',
    visibility_level: 0,
    ...NEW_PROJECT_SWITCHES,
    runners_token: crypto.randomBytes(10).toString('hex'),
    star_count: 0,
    import_url: null,
    avatar: null,
    last_activity_at: at,
    created_at: at,
    updated_at: at,
  });
  await cloneBareRepository(source, repositoryPath(config.dataDir, namespace.path, name));
  if ((process.env.BENCH_PROTECT ?? '').split(',').includes(name)) {
    await insertProtectedBranchIfMissing(db, {
      project_id: project.id,
      name: 'master',
      developers_can_push: 0,
      developers_can_merge: 0,
      created_at: at,
      updated_at: at,
    });
  }
}
await server.app.listen({ port: config.port, host: '127.0.0.1' });
if (process.env.BENCH_SSH_PORT) {
  if (process.env.BENCH_SSH_KEY)
    await createKey(server.deps, root.id, { title: 'bench', key: process.env.BENCH_SSH_KEY });
  const ssh = await startSshServer(server.deps, pino({ level: 'warn' }), { host: '127.0.0.1' });
  server.workers.push(ssh.server);
}
process.stdout.write(`READY ${config.port}\n`);
process.on('SIGTERM', () => {
  server.close().then(() => process.exit(0));
});
