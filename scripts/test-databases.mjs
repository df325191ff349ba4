// The PostgreSQL databases the test suite makes (a migrated template, one database per test app) are named
// after the run that owns them: labrador_run_<pid>_…, where pid is scripts/run-tests.mjs's process
// (LABRADOR_TEST_RUN_PID), or the test process's own when a test file runs alone. The runner drops its
// run's databases when it ends, interrupted or not, and at its start those of runs whose process is gone
// (a run killed outright leaves them behind).
//
// Under the runner a test app does not drop its database itself: PostgreSQL answers a DROP DATABASE only
// after a checkpoint of the whole server, 1-2 s each on a loaded two-core machine, which every test file
// waited for at its end (about 150 apps per run). The app renames its database as finished instead, which
// is instant, and the runner drops the finished ones beside the running tests.

const RUN_DATABASE = /^labrador_run_(\d+)_/;

/** The start of every database name of the run of process `pid`. */
export function runDatabasePrefix(pid) {
  return `labrador_run_${pid}_`;
}

/** The name a test app's database `name` takes once the app is done with it, for its run to drop. */
export function finishedDatabaseName(name) {
  return name.replace(RUN_DATABASE, (prefix) => `${prefix}done_`);
}

/** Drops the finished databases of the run of `pid` (finishedDatabaseName); answers the names dropped. */
export async function dropFinishedDatabases(client, pid) {
  const { rows } = await client.query(
    `select datname from pg_database where datname like $1 order by datname`,
    [`${runDatabasePrefix(pid).replace(/_/g, '\\_')}done\\_%`],
  );
  const names = rows.map((row) => row.datname);
  for (const name of names) await client.query(`drop database if exists "${name}" with (force)`);
  return names;
}

/** Whether process `pid` is running (a run's leftovers are only removed once its process is gone). */
export function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return error.code === 'EPERM';
  }
}

/**
 * Drops the databases of the run of `pid`, or with `{ stale: true }` those of every run whose process is
 * no longer alive; answers the names dropped. `client` is a connected pg.Client on the test server.
 */
export async function dropRunDatabases(client, options) {
  const { rows } = await client.query(
    `select datname from pg_database where datname like 'labrador\\_run\\_%'`,
  );
  const doomed = rows
    .map((row) => row.datname)
    .filter((name) => {
      const owner = Number(RUN_DATABASE.exec(name)?.[1]);
      if (!owner) return false;
      return options.stale ? !processAlive(owner) : owner === options.pid;
    });
  for (const name of doomed) await client.query(`drop database if exists "${name}" with (force)`);
  return doomed;
}
