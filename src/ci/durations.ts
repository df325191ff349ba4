// Durations as GitLab's ChronicDuration read them (artifacts:expire_in, "1 week", "3 mins 4 sec",
// "2h20min", "6 mos 1 day", "47 yrs 6 mos and 4d", "1:30:00"): a number alone counts seconds, unknown
// words are ignored, and a total of zero is no duration at all. Hand-written because its unit words and
// sizes (a month is 30 days, a year 365.25) are GitLab's, which no duration package shares.

const UNIT_SECONDS: Record<string, number> = {};
const UNITS: Array<[number, string[]]> = [
  [1, ['seconds', 'second', 'secs', 'sec', 's']],
  [60, ['minutes', 'minute', 'mins', 'min', 'm']],
  [3600, ['hours', 'hour', 'hrs', 'hr', 'h']],
  [86_400, ['days', 'day', 'dy', 'd']],
  [604_800, ['weeks', 'week', 'wks', 'wk', 'w']],
  [2_592_000, ['months', 'month', 'mos', 'mo']],
  [31_557_600, ['years', 'year', 'yrs', 'yr', 'y']],
];
for (const [seconds, words] of UNITS) for (const word of words) UNIT_SECONDS[word] = seconds;

const NUMBER = /^\d+(?:\.\d+)?$|^\.\d+$/;

/** `1:30`, `1:30:00`, `2:1:30:00`: minutes:seconds up to days:hours:minutes:seconds. */
function clockSeconds(text: string): number | undefined {
  if (!/^\d+(?::\d+){1,3}(?:\.\d+)?$/.test(text)) return undefined;
  const parts = text.split(':').map(Number);
  const scales = [1, 60, 3600, 86_400].slice(0, parts.length).reverse();
  return parts.reduce((sum, part, index) => sum + part * scales[index]!, 0);
}

/** Seconds, or undefined when the text names no positive duration. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  const clock = clockSeconds(trimmed);
  if (clock !== undefined) return clock > 0 ? clock : undefined;
  // Split numbers from letters ("2h20min" → "2 h 20 min") and drop everything else.
  const words = trimmed
    .replace(/(\d+(?:\.\d+)?|\.\d+)/g, ' $1 ')
    .split(/[^a-z0-9.]+/)
    .filter((word) => word !== '');
  let total = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!NUMBER.test(word)) continue;
    const unit = UNIT_SECONDS[words[i + 1] ?? ''];
    total += Number(word) * (unit ?? 1);
    if (unit !== undefined) i++;
  }
  return total > 0 ? total : undefined;
}
