// Database errors that services turn into GitLab's answers, recognised the same way on both engines.

/** A unique index refused the write (SQLite SQLITE_CONSTRAINT_UNIQUE / PostgreSQL 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** The current time as stored: ISO 8601 UTC with milliseconds. */
export function now(): string {
  return new Date().toISOString();
}
