// A real SMTP server on 127.0.0.1 (smtp-server, port 0) that parses and keeps every mail it accepts.
// `refuse` answers the next N messages 451 (a greylisting server) before accepting again.
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  to: string[];
  parsed: ParsedMail;
  header(name: string): string | undefined;
}

export interface SmtpSink {
  url: string;
  port: number;
  mails: ReceivedMail[];
  /** Answer this many messages 451 first. */
  refuse: number;
  /** How many messages were refused so far. */
  refused: number;
  to(address: string): ReceivedMail[];
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpSink(options: { port?: number } = {}): Promise<SmtpSink> {
  const sink: SmtpSink = {
    url: '',
    port: 0,
    mails: [],
    refuse: 0,
    refused: 0,
    to: (address) => sink.mails.filter((mail) => mail.to.includes(address.toLowerCase())),
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (sink.mails.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mails, got ${sink.mails.length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return sink.mails;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (sink.refuse > 0) {
          sink.refuse--;
          sink.refused++;
          const error = Object.assign(new Error('Greylisted, try again later'), { responseCode: 451 });
          return callback(error);
        }
        const parsed = await simpleParser(Buffer.concat(chunks));
        sink.mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          parsed,
          // The header as sent (unfolded), not mailparser's structured reading of it.
          header: (name) => {
            const line = parsed.headerLines.find((entry) => entry.key === name.toLowerCase())?.line;
            return line
              ?.slice(line.indexOf(':') + 1)
              .replace(/\r?\n\s+/g, ' ')
              .trim();
          },
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  sink.port = (server.server.address() as AddressInfo).port;
  sink.url = `smtp://127.0.0.1:${sink.port}`;
  return sink;
}
