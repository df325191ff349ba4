// The SSH server's host keys: made on first start and kept in <data dir>/ssh/ (ed25519, and RSA for
// clients too old for ed25519), so clients see the same identity after every restart. A key file is
// linked into place only if none exists yet, so two processes starting on one data dir agree on one key.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sshpk from 'sshpk';

const generateKeyPair = promisify(crypto.generateKeyPair);

export interface HostKey {
  /** The private key in OpenSSH's format, as the SSH library reads it. */
  privateKey: string;
  type: 'ed25519' | 'rsa';
  /** `SHA256:…`, what `ssh` prints when it first meets the server. */
  fingerprint: string;
}

const KINDS = [
  { type: 'ed25519', file: 'ssh_host_ed25519_key' },
  { type: 'rsa', file: 'ssh_host_rsa_key' },
] as const;

/** In the thread pool: an RSA key takes seconds and must not stall requests being served. */
async function generate(type: HostKey['type']): Promise<string> {
  const pair =
    type === 'ed25519'
      ? await generateKeyPair('ed25519')
      : await generateKeyPair('rsa', { modulusLength: 3072 });
  const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return sshpk.parsePrivateKey(pem, 'pem').toString('openssh');
}

async function loadOrCreate(dir: string, type: HostKey['type'], file: string): Promise<HostKey> {
  const target = path.join(dir, file);
  let text: string;
  try {
    text = await fs.readFile(target, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const temporary = `${target}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    await fs.writeFile(temporary, await generate(type), { mode: 0o600 });
    try {
      await fs.link(temporary, target);
    } catch (linkError) {
      if ((linkError as NodeJS.ErrnoException).code !== 'EEXIST') throw linkError;
    } finally {
      await fs.rm(temporary, { force: true });
    }
    text = await fs.readFile(target, 'utf8');
  }
  const key = sshpk.parsePrivateKey(text, 'auto');
  return { privateKey: text, type, fingerprint: key.fingerprint('sha256').toString() };
}

function hostKeysDir(dataDir: string): string {
  return path.join(dataDir, 'ssh');
}

export async function loadHostKeys(dataDir: string): Promise<HostKey[]> {
  const dir = hostKeysDir(dataDir);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  return Promise.all(KINDS.map((kind) => loadOrCreate(dir, kind.type, kind.file)));
}
