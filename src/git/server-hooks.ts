// Server-side git hooks shared by every repository through `-c core.hooksPath=<dataDir>/hooks` on
// receive-pack (repositories themselves stay plain bare repositories). Written at start-up.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function hooksPath(dataDir: string): string {
  return path.join(dataDir, 'hooks');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export async function installHooks(dataDir: string): Promise<void> {
  const dir = hooksPath(dataDir);
  await fs.mkdir(dir, { recursive: true });
  const script = fileURLToPath(new URL('./hooks/pre-receive.mjs', import.meta.url));
  const body = `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(script)}\n`;
  const target = path.join(dir, 'pre-receive');
  // Written to a temporary name and renamed: a push running meanwhile never sees half a script.
  const temporary = `${target}.${process.pid}.tmp`;
  await fs.writeFile(temporary, body, { mode: 0o755 });
  await fs.rename(temporary, target);
}
