// Imports (POST /projects with import_url): a bare clone of a remote http(s) or git:// repository.
// Only network protocols are allowed, also for redirects and submodule-like indirections, so an import
// can never read another repository from this machine's disk.
import fs from 'node:fs/promises';
import path from 'node:path';
import { git } from './exec.ts';

const IMPORT_PROTOCOLS = ['http', 'https', 'git'];

/** How long an import may take before it is given up. */
const IMPORT_TIMEOUT_MS = 300_000;

export async function importBareRepository(url: string, repoPath: string): Promise<void> {
  await fs.mkdir(path.dirname(repoPath), { recursive: true });
  await git(['clone', '--bare', '--quiet', '--', url, repoPath], {
    timeoutMs: IMPORT_TIMEOUT_MS,
    env: { GIT_ALLOW_PROTOCOL: IMPORT_PROTOCOLS.join(':') },
  });
}
