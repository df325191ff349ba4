// Types of test-databases.mjs (plain JavaScript: scripts/run-tests.mjs runs without a TypeScript loader).
import type pg from 'pg';

export function runDatabasePrefix(pid: number | string): string;
export function finishedDatabaseName(name: string): string;
export function dropFinishedDatabases(client: pg.Client, pid: number): Promise<string[]>;
export function dropRunDatabases(
  client: pg.Client,
  options: { pid: number; stale?: false } | { stale: true },
): Promise<string[]>;
