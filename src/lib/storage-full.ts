// A write that failed because the disk (or the database's disk) is full, recognised the same way from
// every source: the file system (ENOSPC, EDQUOT), SQLite (SQLITE_FULL), PostgreSQL (53100 disk_full,
// 53400 configuration_limit_exceeded is not it) and git, whose failures reach us as its stderr text.

const CODES: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  SQLITE_FULL: 'SQLite: database or disk is full',
  '53100': 'PostgreSQL: disk full (53100)',
};

/** git and other tools say it in words (`fatal: … No space left on device`). */
const WORDS = /No space left on device|Disk quota exceeded|database or disk is full/i;

/** What filled up, in one line (for the log), or undefined when `error` is something else. */
export function storageFullCause(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    const text = typeof message === 'string' ? message.split('\n')[0]!.slice(0, 300) : '';
    if (typeof code === 'string' && code in CODES) return text ? `${CODES[code]}: ${text}` : CODES[code];
    if (typeof message === 'string' && WORDS.test(message)) {
      const line = message.split('\n').find((part) => WORDS.test(part)) ?? text;
      return line.trim().slice(0, 300);
    }
    current = cause;
  }
  return undefined;
}
