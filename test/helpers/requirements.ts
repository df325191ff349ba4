// What a test needs from the machine beyond Node and git: a PostgreSQL server, Chromium. Locally a missing
// one skips the tests that need it with one line; under CI (`CI=true`, as CI runs `.ci/run`) nothing may be
// skipped for a missing engine or browser, so the same call throws and the run fails, naming what is missing.

/** True when the suite runs under CI: CI is set to anything but "", "0" or "false". */
export function underCi(): boolean {
  const value = (process.env.CI ?? '').trim().toLowerCase();
  return value !== '' && value !== '0' && value !== 'false';
}

/**
 * `problem` is undefined when the requirement `name` is met. Answers what node:test's `skip` option takes:
 * false when met, else (locally) the one-line reason to skip; under CI it throws that line instead.
 *
 *   describe('pages in a browser', { skip: requirement('Chromium', chromiumProblem()) }, () => { … });
 */
export function requirement(name: string, problem: string | undefined): false | string {
  if (problem === undefined) return false;
  if (underCi()) throw new Error(`${name} is required under CI=true but is missing: ${problem}`);
  return `${name} is missing: ${problem}`;
}
