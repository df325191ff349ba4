// SSH keys of users. Validation follows GitLab's Key model, field by field in its order; the fingerprint
// is what `ssh-keygen -l -E md5` prints for the key. Every write is one transaction, which the system
// hook deliveries (key_create / key_destroy) join.
import { mailNewKey } from './account-mails.ts';
import crypto from 'node:crypto';
import sshpk from 'sshpk';
import type { Deps } from '../../deps.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { now } from '../../lib/clock.ts';
import { deleteKeyOfUser, insertKey, isFingerprintTaken } from '../../db/repositories/keys.ts';
import { ValidationErrors, validationFailed } from '../../errors.ts';
import { announceUserKey } from '../hooks/system-hook-announcements.ts';
import type { Executor, KeyRow } from '../../db/types.ts';

export interface NewKey {
  title: string;
  key: string;
}

/** OpenSSH refuses RSA moduli below this when reading a key (ssh-keygen -l fails on them). */
const RSA_MINIMUM_BITS = 1024;
const KEY_LINE = /^(\S+)[ \t]+([A-Za-z0-9+/]+={0,2})(?:[ \t]+(.*))?$/;

/**
 * The MD5 fingerprint of a one-line public key (`aa:bb:…`, 16 bytes), or undefined when ssh-keygen
 * could not have produced one. sshpk hashes the key's canonical wire form, as ssh-keygen does, so an
 * odd-but-valid encoding of a key has the same fingerprint as the usual one (and stays a duplicate).
 */
export function keyFingerprint(text: string): string | undefined {
  const match = KEY_LINE.exec(text);
  if (!match) return undefined;
  const [, algorithm, base64] = match as unknown as [string, string, string];
  const blob = Buffer.from(base64, 'base64');
  if (blob.toString('base64') !== base64) return undefined;
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(blob, 'rfc4253');
    if (sshpk.PrivateKey.isPrivateKey(key, [1, 0])) return undefined;
    // The name in front must be the blob's own (ssh-keygen checks the curve of ecdsa keys too).
    if (key.toString('ssh').split(' ')[0] !== algorithm) return undefined;
    if (key.type === 'rsa' && key.size < RSA_MINIMUM_BITS) return undefined;
    // OpenSSL checks what sshpk does not: an ECDSA point must lie on its curve.
    crypto.createPublicKey(key.toString('pkcs8'));
    return key.fingerprint('md5').toString('hex');
  } catch {
    return undefined;
  }
}

const length = (text: string) => [...text].length;

/** Key's validations in GitLab's order: title, key (presence, length, format, one line), fingerprint. */
export async function validateKey(db: Executor, input: NewKey) {
  const errors = new ValidationErrors();
  const key = input.key.trim();
  if (input.title.trim() === '') errors.add('title', "can't be blank");
  else if (length(input.title) > 255) errors.add('title', 'is too long (maximum is 255 characters)');
  // A NUL byte cannot be stored as text on PostgreSQL; GitLab's model never saw one.
  if (input.title.includes('\0') && !errors.has('title')) errors.add('title', 'is invalid');
  if (key === '') errors.add('key', "can't be blank");
  if (length(key) > 5000) errors.add('key', 'is too long (maximum is 5000 characters)');
  if (!/^(ssh|ecdsa)-[^\n]*$/.test(key) || key.includes('\0')) errors.add('key', 'is invalid');
  if (/[\n\r]/.test(key)) errors.add('key', 'should be a single line');
  // Past the length limit the key is refused already; parsing megabytes for a second message is waste.
  const tooLong = errors.has('key') && length(key) > 5000;
  const fingerprint = key === '' || tooLong ? undefined : keyFingerprint(key);
  if (fingerprint && (await isFingerprintTaken(db, fingerprint))) {
    errors.add('fingerprint', 'has already been taken');
  }
  if (!fingerprint && !tooLong) errors.add('fingerprint', 'cannot be generated');
  return { errors, key, fingerprint: fingerprint ?? '' };
}

/** Adds a key to the user; a validation failure is GitLab's hash, `{"message":{"key":["is invalid"]}}`. */
export async function createKey(deps: Deps, userId: number, input: NewKey): Promise<KeyRow> {
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      const { errors, key, fingerprint } = await validateKey(trx, input);
      errors.throwIfAny();
      const at = now();
      const row = await insertKey(trx, {
        user_id: userId,
        title: input.title,
        key,
        fingerprint,
        created_at: at,
        updated_at: at,
      });
      await announceUserKey(trx, 'create', row);
      await mailNewKey(trx, deps, row);
      return row;
    });
  } catch (error) {
    // Two requests adding the same key at once: the unique index decides, as the validation would have.
    if (isUniqueViolation(error)) {
      throw validationFailed({ fingerprint: ['has already been taken'] });
    }
    throw error;
  }
}

/** Removes a key of the user; undefined when there was no such key (the caller decides if that is an error). */
export function destroyKey(deps: Deps, userId: number, keyId: number): Promise<KeyRow | undefined> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const deleted = await deleteKeyOfUser(trx, userId, keyId);
    if (deleted) await announceUserKey(trx, 'destroy', deleted);
    return deleted;
  });
}
