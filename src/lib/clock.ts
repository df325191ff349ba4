// Time as Labrador stores and shows it: ISO 8601 UTC with milliseconds (`2016-01-11T10:13:33.506Z`).

/** The current time as stored. */
export function now(): string {
  return new Date().toISOString();
}

const DAY_MS = 86_400_000;
let todayText = '';
let tomorrowAt = 0;

/**
 * Today as YYYY-MM-DD (UTC): a membership or share with expires_at <= today has expired. Every project
 * read asks, so the text is made once a day.
 */
export function today(): string {
  const at = Date.now();
  if (at >= tomorrowAt || at < tomorrowAt - DAY_MS) {
    todayText = new Date(at).toISOString().slice(0, 10);
    tomorrowAt = (Math.floor(at / DAY_MS) + 1) * DAY_MS;
  }
  return todayText;
}
