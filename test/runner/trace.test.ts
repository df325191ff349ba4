// The runner's trace on its own: the limit cuts the trace with a note, and the streamer sends only what is
// new, resends from where the server stands after a 416, and stops the build when the answer says
// canceled (a 403 to a piece, or to the keep-alive update sent when there is nothing new). A stand-in for the protocol client records what would have gone over HTTP.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ProtocolClient, TraceAnswer } from '../../src/runner/client.ts';
import { BuildTrace, TraceStreamer } from '../../src/runner/trace.ts';
import { eventually } from '../helpers/runner-client.ts';

it('cuts the trace at the limit and says so', () => {
  const trace = new BuildTrace(10);
  trace.write('12345');
  trace.write('67890abc');
  trace.write('more');
  const text = trace.toString();
  assert.ok(text.startsWith('1234567890\n'));
  assert.match(text, /Build log exceeded limit of 10 bytes\./);
  assert.doesNotMatch(text, /abc|more/);
});

class FakeClient {
  patches: Array<{ offset: number; piece: string }> = [];
  answers: TraceAnswer[] = [];
  updates: Array<'ok' | 'stop'> = [];
  keepAlives = 0;
  async patchTrace(_job: unknown, offset: number, piece: Buffer): Promise<TraceAnswer> {
    this.patches.push({ offset, piece: piece.toString() });
    return this.answers.shift() ?? { kind: 'ok' };
  }
  async updateJob(_job: unknown, state: string): Promise<'ok' | 'stop'> {
    assert.equal(state, 'running');
    this.keepAlives++;
    return this.updates.shift() ?? 'ok';
  }
}

it('streams new bytes, follows a 416 to the server’s length, and stops on cancel', async () => {
  const client = new FakeClient();
  const trace = new BuildTrace(1024);
  let canceled = 0;
  const streamer = new TraceStreamer(
    client as unknown as ProtocolClient,
    { id: 1, token: 'build-token' },
    trace,
    5,
    () => canceled++,
  );
  trace.write('hello ');
  // The server has only 3 bytes: the piece is sent again from there.
  client.answers.push({ kind: 'range', offset: 3 });
  streamer.start();
  await eventually(async () => client.patches.length >= 2);
  assert.deepEqual(client.patches.slice(0, 2), [
    { offset: 0, piece: 'hello ' },
    { offset: 3, piece: 'lo ' },
  ]);
  trace.write('world');
  await eventually(async () => client.patches.some((patch) => patch.piece === 'world'));
  assert.equal(client.patches.find((patch) => patch.piece === 'world')!.offset, 6);
  // Nothing new: keep-alive updates; the one answered 403 (cancelled) stops the build.
  await eventually(async () => client.keepAlives > 0);
  assert.equal(canceled, 0);
  client.updates.push('stop');
  await eventually(async () => canceled > 0);
  await streamer.stop();
  assert.equal(canceled, 1);
});

it('stops the build when a trace piece is answered 403 (the job was cancelled)', async () => {
  const client = new FakeClient();
  const trace = new BuildTrace(1024);
  let canceled = 0;
  const streamer = new TraceStreamer(
    client as unknown as ProtocolClient,
    { id: 1, token: 'build-token' },
    trace,
    5,
    () => canceled++,
  );
  trace.write('output');
  client.answers.push({ kind: 'stop' });
  streamer.start();
  await eventually(async () => canceled > 0);
  await streamer.stop();
  assert.deepEqual(client.patches[0], { offset: 0, piece: 'output' });
});
