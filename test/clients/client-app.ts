// A test app that real clients reach over TCP: it listens on a port chosen before it starts, and its
// external URL names that port, so the Link headers' URLs a client follows for the next page lead back
// here (python-gitlab warns when they name another base URL, as they would with the usual test URL).
import net from 'node:net';
import { startTestApp, type TestApp } from '../helpers/app.ts';

export interface ClientApp {
  t: TestApp;
  /** `http://127.0.0.1:<port>`, what a client is given as its GitLab URL. */
  url: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject()));
    });
  });
}

export async function startClientApp(): Promise<ClientApp> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await startTestApp({ LABRADOR_EXTERNAL_URL: url });
  await t.server.app.listen({ port, host: '127.0.0.1' });
  return { t, url };
}
