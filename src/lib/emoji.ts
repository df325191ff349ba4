// Award emoji names. GitLab 8.13 took its list from gemojione and spelled the thumbs `thumbsup` and
// `thumbsdown` (aliases `+1`, `-1`); the names here come from emojilib (GitHub's gemoji names), so they
// match what clients of the era sent (`smile`, `tada`, `heart`, `8ball` …).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const NAMES = new Set(Object.keys((require('emojilib') as { lib: Record<string, unknown> }).lib));

const ALIASES: Record<string, string> = { '+1': 'thumbsup', '-1': 'thumbsdown' };

/** The name as awards store it (aliases resolved). */
export function normalizeEmojiName(name: string): string {
  return ALIASES[name] ?? name;
}

export function isKnownEmoji(name: string): boolean {
  return name === 'thumbsup' || name === 'thumbsdown' || (NAMES.has(name) && !(name in ALIASES));
}
