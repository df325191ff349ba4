// Results of prepared reads (db/prepared.ts), kept while the database has not changed. Every API request
// reads the caller by token and most read the project they name: the same few rows, again and again, on a
// database that changes far less often than it is read. A hit costs a version check instead of a statement.
//
// Correctness rests on the version: a result is used only while the database version read before its
// statement ran is still the current one, so any commit in between (by this process or any other) makes
// it invisible. A result may have been read a moment after its version (a commit landing between the
// check and the statement); the next check then sees the newer version and drops it unused.
//
// Results are shared by every caller that hits them, so rows and lists are frozen: a caller that tried to
// change one would throw instead of changing what the next request reads.
import { BoundedMap } from '../lib/bounded-map.ts';

/** A list above this many rows is not kept: pages and searches vary too much to be worth the memory. */
const MAX_ROWS = 50;
/** Entries kept for one version; the oldest goes first once full. */
const MAX_ENTRIES = 5_000;

export class ReadCache {
  #version: unknown = undefined;
  readonly #entries = new BoundedMap<string, readonly unknown[]>(MAX_ENTRIES);

  /** The rows kept for `key` at `version`, if any; a new version empties the cache. */
  get(version: unknown, key: string): readonly unknown[] | undefined {
    if (version !== this.#version) {
      this.#version = version;
      this.#entries.clear();
      return undefined;
    }
    return this.#entries.get(key);
  }

  /**
   * Keeps `rows` as read at `version` (unless `keep` is false); returns them, frozen in place either way so
   * that a caller changing a result fails in every test, cached or not.
   */
  set(version: unknown, key: string, rows: unknown[], keep = true): readonly unknown[] {
    for (const row of rows) Object.freeze(row);
    Object.freeze(rows);
    if (!keep || version !== this.#version || rows.length > MAX_ROWS) return rows;
    this.#entries.set(key, rows);
    return rows;
  }
}

/** One key per statement and values (JSON keeps 1 and "1", or a value holding a separator, apart). */
export function readCacheKey(name: string, parameters: readonly unknown[]): string {
  return name + JSON.stringify(parameters);
}
