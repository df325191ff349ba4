// Imports (POST /projects with import_url): a bare clone of a remote http(s) or git:// repository.
// Only network protocols are allowed, also for redirects and submodule-like indirections, so an import
// can never read another repository from this machine's disk.
import fs from 'node:fs/promises';
import path from 'node:path';
import { git } from './exec.ts';

const IMPORT_PROTOCOLS = ['http', 'https', 'git'];

/** How long an import may take before it is given up. */
const IMPORT_TIMEOUT_MS = 300_000;

/**
 * Clones `url` into `repoPath`. `addresses`, when given, are the ones the outbound guard judged for the
 * URL's host: git connects to those (curl's resolve list) and follows no redirect, so a name that answers
 * differently the second time (DNS rebinding) or a redirect cannot take the clone to a refused address.
 * (git:// connects through git's own resolver, which takes no such list.)
 */
export async function importBareRepository(
  url: string,
  repoPath: string,
  addresses?: string[],
): Promise<void> {
  await fs.mkdir(path.dirname(repoPath), { recursive: true });
  const pinned: string[] = [];
  if (addresses) {
    const { protocol, hostname, port } = new URL(url);
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    const to = addresses.map((address) => (address.includes(':') ? `[${address}]` : address)).join(',');
    const defaultPort = protocol === 'https:' ? '443' : '80';
    pinned.push('-c', `http.curloptResolve=${host}:${port || defaultPort}:${to}`);
    pinned.push('-c', 'http.followRedirects=false');
  }
  await git([...pinned, 'clone', '--bare', '--quiet', '--', url, repoPath], {
    timeoutMs: IMPORT_TIMEOUT_MS,
    env: { GIT_ALLOW_PROTOCOL: IMPORT_PROTOCOLS.join(':') },
  });
}
