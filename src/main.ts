// The process: read the environment, start the server, listen, and close gracefully on SIGTERM/SIGINT.
import pino from 'pino';
import { loadConfig } from './config.ts';
import { startServer } from './server.ts';

const config = loadConfig();
const log = pino({ level: config.logLevel });
const server = await startServer(config, log);
await server.app.listen({ port: config.port, host: config.host });

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
