// A real HTTP(S) receiver on 127.0.0.1 (port 0) that records every hook delivery it gets. Its answers
// are scripted: a queue of status codes (then 200), or `hang` to never answer at all.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedHook[];
  /** Status codes for the next answers, in order; afterwards 200. */
  answers: number[];
  /** Never answer (the request stays open until the client gives up). */
  hang: boolean;
  /** Requests held open by `hang` right now. */
  readonly hanging: number;
  /** Answers the requests held open by `hang` (200), recording them as received. */
  release(): void;
  /** Answer this many ms after the request arrived. */
  delayMs: number;
  /** Resolves when `count` deliveries have arrived (fails after `timeoutMs`, 60 s unless given). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  tls?: { key: string; cert: string };
  /** Listen on this port (to bring a receiver back up where a stopped one was). */
  port?: number;
}

/** A self-signed certificate for 127.0.0.1, made with openssl. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const hanging = new Map<http.ServerResponse, ReceivedHook>();
  const receiver = {
    received: [] as ReceivedHook[],
    answers: [] as number[],
    hang: false,
    delayMs: 0,
  } as Receiver;
  const record = (hook: ReceivedHook) => {
    receiver.received.push(hook);
    for (const waiter of [...waiters]) {
      if (receiver.received.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  receiver.release = () => {
    for (const [response, hook] of [...hanging]) {
      hanging.delete(response);
      record(hook);
      response.statusCode = 200;
      response.end('ok');
    }
  };
  const handler: http.RequestListener = (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const hook = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      if (receiver.hang) {
        hanging.set(response, hook);
        return;
      }
      record(hook);
      response.statusCode = receiver.answers.shift() ?? 200;
      if (receiver.delayMs > 0) setTimeout(() => response.end('ok'), receiver.delayMs);
      else response.end('ok');
    });
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  Object.defineProperty(receiver, 'hanging', { get: () => hanging.size });
  server.on('request', (_request, response) => response.on('close', () => hanging.delete(response)));
  const port = (server.address() as AddressInfo).port;
  receiver.port = port;
  receiver.url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/hook`;
  receiver.waitFor = (count, timeoutMs = 60_000) =>
    new Promise((resolve, reject) => {
      if (receiver.received.length >= count) return resolve(receiver.received);
      const timer = setTimeout(
        () => reject(new Error(`receiver got ${receiver.received.length} of ${count} deliveries`)),
        timeoutMs,
      );
      waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve(receiver.received);
        },
      });
    });
  receiver.close = async () => {
    for (const response of hanging.keys()) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}
