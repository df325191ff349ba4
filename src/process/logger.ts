// The process logger: readable lines on a terminal, one JSON object per line otherwise (journald,
// Docker, log shippers). pino-pretty is loaded only for a terminal and writes synchronously, so nothing
// is lost when the process exits right after a line.
import pino, { type Logger } from 'pino';
import type { Config } from '../config.ts';

export async function createLogger(
  config: Pick<Config, 'logLevel'>,
  terminal = process.stdout.isTTY === true,
): Promise<Logger> {
  if (!terminal) return pino({ level: config.logLevel });
  const { default: pretty } = await import('pino-pretty');
  return pino(
    { level: config.logLevel },
    pretty({
      sync: true,
      colorize: true,
      translateTime: 'SYS:HH:MM:ss.l', // request lines say it all in their message
      ignore: 'pid,hostname,reqId,method,path,status,ms',
    }),
  );
}
