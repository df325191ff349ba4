// A JSON array written element by element as its source yields them: the reply streams with backpressure
// and never holds the whole list (trees and compares of any size).

export async function* jsonArrayChunks(items: AsyncIterable<unknown>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const item of items) {
    yield first ? JSON.stringify(item) : `,${JSON.stringify(item)}`;
    first = false;
  }
  yield ']';
}
