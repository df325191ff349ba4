// A node:test reporter that writes one JSON object: each test file's time in ms (its top-level tests'
// durations summed). scripts/run-tests.mjs keeps these to start the slowest files first next time.
export default async function* testTimings(source) {
  const files = {};
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.nesting !== 0 || !event.data.file) continue;
    files[event.data.file] = (files[event.data.file] ?? 0) + (event.data.details?.duration_ms ?? 0);
  }
  yield JSON.stringify(files);
}
