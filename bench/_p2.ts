import pino from 'pino';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-prof-'));
const config = loadConfig({
  LABRADOR_DATA_DIR: dataDir,
  LABRADOR_ROOT_TOKEN: 'tok',
  LABRADOR_ROOT_PASSWORD: 'password-1234',
  LABRADOR_LOG_LEVEL: 'warn',
});
const server = await startServer(config, pino({ level: 'warn' }));
for (let i = 0; i < 10; i++)
  await server.app.inject({
    method: 'POST',
    url: '/api/v3/projects',
    headers: { 'private-token': 'tok' },
    payload: { name: `p${i}` },
  });
for (const url of ['/api/v3/user', '/api/v3/projects/1', '/api/v3/projects', '/api/v3/projects/1/events']) {
  for (let i = 0; i < 300; i++)
    await server.app.inject({ method: 'GET', url, headers: { 'private-token': 'tok' } });
  const t0 = performance.now();
  for (let i = 0; i < 1000; i++)
    await server.app.inject({ method: 'GET', url, headers: { 'private-token': 'tok' } });
  console.log(url, ((performance.now() - t0) / 1000).toFixed(3), 'ms');
}
await server.close();
