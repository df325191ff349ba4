// Waiting for an event instead of sleeping: poll until it has happened, with a bound generous enough for a
// fully loaded machine, and fail with what was awaited when it never happens. A test that needs something
// to not happen waits for the event that would have let it happen, then checks.

/** Polls `check` until it answers something truthy (which it returns); fails after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
