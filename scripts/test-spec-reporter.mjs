// node's spec reporter, with the compiled test files of a run (scripts/build-tests.mjs) named by their .ts
// sources: a file that fails outside its tests (a crash on load, a leaked handle) is reported by its path.
// Failures inside tests already name their source through the source maps.
import { Readable } from 'node:stream';
import { spec } from 'node:test/reporters';
import { sourceOfBuilt } from './build-tests.mjs';

async function* withSourceNames(source) {
  for await (const event of source) {
    const data = event.data;
    if (data && typeof data.file === 'string') data.file = sourceOfBuilt(data.file);
    if (data && typeof data.name === 'string') data.name = sourceOfBuilt(data.name);
    yield event;
  }
}

export default async function* specWithSourceNames(source) {
  yield* Readable.from(withSourceNames(source)).pipe(new spec());
}
