// Time as Labrador stores and shows it: ISO 8601 UTC with milliseconds (`2016-01-11T10:13:33.506Z`).

/** The current time as stored. */
export function now(): string {
  return new Date().toISOString();
}
