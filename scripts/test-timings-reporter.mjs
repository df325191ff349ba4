// A node:test reporter that writes one JSON object: the run's summary (node's closing diagnostics: tests,
// pass, fail, skipped, …) and each test file's time in ms (its top-level tests' durations summed).
// scripts/run-tests.mjs prints the counts and keeps the times to start the slowest files first next time.
export default async function* testTimings(source) {
  const files = {};
  const summary = {};
  for await (const event of source) {
    if (event.type === 'test:diagnostic' && event.data.nesting === 0) {
      const match = /^(\w+) (\d+(?:\.\d+)?)$/.exec(event.data.message);
      if (match) summary[match[1]] = Number(match[2]);
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.nesting !== 0 || !event.data.file) continue;
    files[event.data.file] = (files[event.data.file] ?? 0) + (event.data.details?.duration_ms ?? 0);
  }
  yield JSON.stringify({ summary, files });
}
