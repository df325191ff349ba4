// Time as Labrador stores and shows it: ISO 8601 UTC with milliseconds (`2016-01-11T10:13:33.506Z`).

/** The current time as stored. */
export function now(): string {
  return new Date().toISOString();
}

/** Today as YYYY-MM-DD (UTC): a membership or share with expires_at <= today has expired. */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}
