// WebHook's `url: true` validation, shared by project and system hooks.

/** GitLab's hooks.url column held 2,000 characters. */
const MAX_HOOK_URL_LENGTH = 2000;

/**
 * An http(s) URL with a host, after stripping blanks, within MAX_HOOK_URL_LENGTH characters and free of
 * control characters (NUL included: Ruby's URI parser refused them); answers the URL to store, or
 * undefined.
 */
export function validHookUrl(url: string): string | undefined {
  const text = url.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (text === '' || /[\s\u0000-\u001f\u007f]/.test(text)) return undefined;
  if (characterCount(text, MAX_HOOK_URL_LENGTH) > MAX_HOOK_URL_LENGTH) return undefined;
  try {
    const parsed = new URL(text);
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '') return text;
  } catch {
    // not a URL
  }
  return undefined;
}

/** Characters (code points, as the column counted them), counting no further than `limit` + 1. */
function characterCount(text: string, limit: number): number {
  if (text.length <= limit) return text.length;
  let count = 0;
  for (const _ of text) if (++count > limit) break;
  return count;
}
