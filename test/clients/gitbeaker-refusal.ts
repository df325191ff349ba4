// What a gitbeaker call that Labrador refused raised: the status and the text gitbeaker read from the
// body (`cause.description`), as a client's error handling sees them.
import assert from 'node:assert/strict';
import { GitbeakerRequestError } from '@gitbeaker/rest';

export async function refusal(call: Promise<unknown>): Promise<{ status: number; description: string }> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof GitbeakerRequestError, String(error));
    const cause = error.cause as { description: string; response: Response };
    return { status: cause.response.status, description: cause.description };
  }
  assert.fail('the call succeeded');
}
