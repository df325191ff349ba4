// Packages that a process may never need (PostgreSQL's client on SQLite, YAML until a pipeline is made,
// zip reading until artifacts are browsed, the HTTP client until a hook fires) load on first use: each
// costs megabytes of idle memory and milliseconds of every start.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** `lazy<typeof import('yaml')>('yaml')()` loads the package the first time and returns it after. */
export function lazy<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
