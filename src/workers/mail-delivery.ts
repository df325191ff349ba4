// Sends the mail outbox over SMTP with nodemailer. Each process runs one worker; several processes on one
// PostgreSQL database share the rows (claims are atomic and leased, see repositories/outbox-claims.ts).
// - A 4xx answer (451 greylisting, 421 busy), a refused connection or a timeout is retried with doubling
//   back-off up to maxAttempts; a 5xx answer is final (the server refused that mail).
// - A claim never reported back (kill -9) becomes due again when its lease ends; a graceful stop gives
//   claims back. A mail is marked sent right after the server accepted it, so it is sent twice only if the
//   process dies in that instant; its Message-ID is the same both times, which lets clients fold them.
// Every attempt and its outcome is logged.
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import { redactSmtpUrl, type MailConfig } from '../config.ts';
import type { Db } from '../db/connect.ts';
import type { Deps } from '../deps.ts';
import { expandRecordedMailEvent } from '../services/mail/mail-events.ts';
import * as repo from '../db/repositories/mails.ts';
import { onMailsQueued } from '../services/mail/mail-outbox.ts';
import { lazy } from '../lib/lazy.ts';
import type { MailRow } from '../db/types.ts';
import type { Worker } from './worker.ts';
import { leaseAt, outboxWorkerId } from './outbox-lease.ts';

const mailer = lazy<typeof import('nodemailer')>('nodemailer');

const MAX_BACKOFF_MS = 60 * 60 * 1000;
const WAKE_DELAY_MS = 15;
/** Events expanded per claim. */
const EXPAND_BATCH = 20;
/** Mails sent at once per process. */
const CONCURRENCY = 4;

export class MailDeliveryWorker implements Worker {
  readonly name = 'mail deliveries';
  readonly workerId = outboxWorkerId();
  private transport: Transporter | undefined;
  private readonly inFlight = new Map<number, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private ticking: Promise<number> | undefined;
  private polling = false;
  private closed = false;

  private readonly db: Db;
  private readonly config: MailConfig;

  constructor(
    private readonly deps: Deps,
    private readonly log: FastifyBaseLogger,
  ) {
    this.db = deps.db;
    this.config = deps.config.mail;
  }

  private smtp(): Transporter {
    if (!this.transport) {
      const url = new URL(this.config.smtpUrl!);
      const secure = url.protocol === 'smtps:';
      this.transport = mailer().createTransport({
        host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port ? Number(url.port) : secure ? 465 : 587,
        secure,
        // smtp://: STARTTLS whenever the server offers it (nodemailer's default), never required.
        auth: url.username
          ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
          : undefined,
        connectionTimeout: this.config.timeoutMs,
        greetingTimeout: this.config.timeoutMs,
        socketTimeout: this.config.timeoutMs,
      });
    }
    return this.transport;
  }

  start(): void {
    if (this.polling || this.closed || !this.config.smtpUrl) return;
    this.polling = true;
    this.unsubscribe = onMailsQueued(() => this.wake());
    this.schedule();
  }

  async stop(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.polling = false;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    clearTimeout(this.wakeTimer);
    await this.ticking?.catch(() => 0);
    await Promise.all(this.inFlight.values());
    this.transport?.close();
  }

  wake(): void {
    if (!this.polling || this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      void this.tick();
    }, WAKE_DELAY_MS);
  }

  /** Sends everything due now and waits for it; with `retries`, until nothing is pending (tests). */
  async drain(options: { retries?: boolean; timeoutMs?: number } = {}): Promise<void> {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    for (;;) {
      if (this.ticking) await this.ticking;
      const busy = this.inFlight.size;
      const claimed = await this.tick();
      await Promise.all(this.inFlight.values());
      if (claimed > 0 || busy > 0) continue;
      if (!options.retries) return;
      const pending =
        (await repo.countPendingMails(this.db.kysely)) + (await repo.countPendingMailEvents(this.db.kysely));
      if (pending === 0) return;
      if (Date.now() > deadline) throw new Error('mails still pending after drain timeout');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  private schedule(): void {
    if (!this.polling) return;
    this.timer = setTimeout(async () => {
      await this.tick();
      this.schedule();
    }, this.config.pollIntervalMs);
    this.timer.unref();
  }

  private tick(): Promise<number> {
    if (this.ticking) return this.ticking;
    this.ticking = this.claimAndSend()
      .catch((error) => {
        this.log.error({ err: error }, 'mail delivery: claim failed');
        return 0;
      })
      .finally(() => {
        this.ticking = undefined;
      });
    return this.ticking;
  }

  private async claimAndSend(): Promise<number> {
    if (!this.config.smtpUrl) return 0;
    let total = await this.expandEvents();
    while (!this.closed) {
      const free = CONCURRENCY - this.inFlight.size;
      if (free <= 0) break;
      const at = new Date();
      const due = await repo.dueMailIds(this.db.kysely, at.toISOString(), free);
      if (due.length === 0) break;
      const claimed = await repo.claimMails(
        this.db.kysely,
        this.db.dialect,
        due.map((row) => row.id),
        // Connecting, greeting and the answer each have their own timeout.
        leaseAt(this.workerId, at, this.config.timeoutMs * 3),
      );
      if (claimed.length === 0) break;
      total += claimed.length;
      for (const mail of claimed) {
        const done = this.deliver(mail)
          .catch((error) =>
            this.log.error({ err: error, mail: mail.id }, 'mail delivery: bookkeeping failed'),
          )
          .finally(() => {
            this.inFlight.delete(mail.id);
            this.wake();
          });
        this.inFlight.set(mail.id, done);
      }
    }
    return total;
  }

  /**
   * Expands due events into mails, each in one transaction with the mark that it is done (so a crash
   * leaves it to expand again, and the (event, user) key keeps a second expansion from doubling mails).
   */
  private async expandEvents(): Promise<number> {
    let total = 0;
    while (!this.closed) {
      const at = new Date();
      const events = await repo.claimMailEvents(
        this.db.kysely,
        this.db.dialect,
        EXPAND_BATCH,
        leaseAt(this.workerId, at, 0),
      );
      if (events.length === 0) break;
      for (const event of events) {
        try {
          const queued = await this.db.kysely.transaction().execute(async (trx) => {
            const count = await expandRecordedMailEvent(trx, this.deps, event.id, event.payload);
            if (!(await repo.finishMailEvent(trx, event.id, this.workerId, new Date().toISOString())))
              throw new Error('claim lost');
            return count;
          });
          total += queued;
          this.log.debug({ mailEvent: event.id, mails: queued }, 'mail event expanded');
        } catch (error) {
          const retryAt = new Date(Date.now() + this.config.retryBaseMs * 2 ** Math.min(event.attempts, 10));
          this.log.error({ err: error, mailEvent: event.id }, 'mail event: expanding failed, will retry');
          await repo.retryMailEvent(this.db.kysely, event.id, this.workerId, retryAt.toISOString());
        }
      }
    }
    return total;
  }

  private async deliver(mail: MailRow): Promise<void> {
    const started = performance.now();
    let error: string | null = null;
    let responseCode: number | undefined;
    try {
      const headers = JSON.parse(mail.headers) as Record<string, string>;
      const { 'Message-ID': messageId, ...rest } = headers;
      await this.smtp().sendMail({
        from: this.config.from,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
        messageId,
        headers: rest,
      });
    } catch (caught) {
      const failure = caught as { responseCode?: number; code?: string; message?: string };
      responseCode = failure.responseCode;
      error = `${failure.code ? `${failure.code}: ` : ''}${failure.message ?? String(caught)}`.slice(0, 1000);
    }
    const attempts = mail.attempts + 1;
    const at = new Date();
    let status: 'pending' | 'sent' | 'failed';
    let nextAttemptAt = at.toISOString();
    if (error === null) status = 'sent';
    else if ((responseCode === undefined || responseCode < 500) && attempts < this.config.maxAttempts) {
      status = 'pending';
      const backoff = Math.min(this.config.retryBaseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS);
      nextAttemptAt = new Date(at.getTime() + backoff).toISOString();
    } else status = 'failed';
    const facts = {
      mail: mail.id,
      to: mail.to_address,
      attempts,
      status,
      durationMs: Math.round(performance.now() - started),
      ...(error === null ? {} : { error, responseCode }),
      smtp: redactSmtpUrl(this.config.smtpUrl!),
    };
    if (status === 'sent') this.log.info(facts, 'mail sent');
    else
      this.log.warn(facts, status === 'failed' ? 'mail failed for good' : 'mail attempt failed, will retry');
    await repo.recordMailAttempt(this.db.kysely, mail.id, this.workerId, {
      status,
      attempts,
      nextAttemptAt,
      error,
      at: at.toISOString(),
    });
  }
}
