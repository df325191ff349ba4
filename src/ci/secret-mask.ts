// Secrets never reach a stored trace: every occurrence of the project's runners token and the build's
// token is replaced by as many `x` as it has characters (GitLab's MaskSecret), so byte offsets stay true.
import { Transform, type TransformCallback } from 'node:stream';

function usable(secrets: Array<string | null | undefined>): Buffer[] {
  return secrets.filter((secret): secret is string => Boolean(secret)).map((secret) => Buffer.from(secret));
}

function maskInPlace(data: Buffer, secrets: Buffer[]): void {
  for (const secret of secrets) {
    for (let at = data.indexOf(secret); at !== -1; at = data.indexOf(secret, at + secret.length)) {
      data.fill(0x78, at, at + secret.length);
    }
  }
}

/** A copy of `text` with the secrets masked. */
export function maskSecrets(text: Buffer, secrets: Array<string | null | undefined>): Buffer {
  const copy = Buffer.from(text);
  maskInPlace(copy, usable(secrets));
  return copy;
}

/**
 * Masks a stream: the last (longest secret − 1) bytes of each chunk are held back until the next one
 * arrives, so a secret split across chunks is still found.
 */
export function maskingStream(secrets: Array<string | null | undefined>): Transform {
  const needles = usable(secrets);
  const keep = Math.max(0, ...needles.map((needle) => needle.length - 1));
  let tail = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      const data = Buffer.concat([tail, chunk]);
      maskInPlace(data, needles);
      const cut = Math.max(0, data.length - keep);
      tail = data.subarray(cut);
      callback(null, data.subarray(0, cut));
    },
    flush(callback: TransformCallback) {
      callback(null, tail);
    },
  });
}
