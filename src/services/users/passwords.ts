// Password hashing with Node's built-in scrypt (memory-hard, no native dependency), and token generation.
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;

/** scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) would refuse N = 2^15 and above. */
const maxmem = (N: number, r: number) => 256 * N * r;

/** A new hash with N = 2^cost; the parameters are stored with it, so older hashes keep verifying. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = crypto.randomBytes(16);
  const N = 2 ** cost;
  const options = { N, r: BLOCK_SIZE, p: PARALLELISM, maxmem: maxmem(N, BLOCK_SIZE) };
  const hash = await scrypt(password, salt, KEY_LENGTH, options);
  return `scrypt$${N}$${BLOCK_SIZE}$${PARALLELISM}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const N = Number(n);
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N,
    r: Number(r),
    p: Number(p),
    maxmem: maxmem(N, Number(r)),
  });
  return crypto.timingSafeEqual(actual, expected);
}
