// Sends the webhook outbox. Each process runs one worker; several processes on one PostgreSQL database
// share the rows (claims are atomic and leased, see repositories/outbox-claims.ts). Guarantees:
// - a slow or dead receiver costs at most `timeoutMs` of one of `perHookConcurrency` slots per process;
//   other hooks keep their slots, and API requests never wait on a receiver;
// - 5xx, 408, 429, network errors and timeouts are retried with doubling back-off up to `maxAttempts`;
//   any other non-2xx answer is final (the receiver refused it);
// - a claim that is never reported back (crash) becomes due again when its lease ends, a graceful stop
//   gives claims back at once: no delivery is lost across a restart (it may, rarely, arrive twice).
import type { Agent } from 'undici';
import { lazy } from '../lib/lazy.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { HookDeliveryConfig } from '../config.ts';
import { guardedConnector, OutboundRefused, type OutboundPolicy } from '../lib/outbound-guard.ts';
import type { Db } from '../db/connect.ts';
import * as repo from '../db/repositories/hook-deliveries.ts';
import { projectHooksByIds } from '../db/repositories/project-hooks.ts';
import { systemHooksByIds } from '../db/repositories/system-hooks.ts';
import { onHooksEnqueued } from '../services/hooks/hook-outbox.ts';
import { outboundPolicyFor } from '../services/hooks/hook-url.ts';
import type { Worker } from './worker.ts';
import { leaseAt, outboxWorkerId } from './outbox-lease.ts';
import type { HookDeliveryRow } from '../db/types.ts';

const httpClient = lazy<typeof import('undici')>('undici');

const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** Delay between an enqueue (still inside its transaction) and the claim it triggers. */
const WAKE_DELAY_MS = 15;
/** How often old finished deliveries are pruned, and how many rows one statement deletes at most. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const PRUNE_BATCH = 1000;

interface Target {
  url: string;
  verifySsl: boolean;
}

interface InFlight {
  delivery: HookDeliveryRow;
  key: string;
  abort: AbortController;
  done: Promise<void>;
}

export class HookDeliveryWorker implements Worker {
  readonly name = 'hook deliveries';
  readonly workerId = outboxWorkerId();
  /**
   * Connection pools by TLS verification and by whether local targets are allowed (the administrator's
   * setting for the hook's kind), each made at its first delivery.
   */
  private readonly agents = new Map<string, Agent>();
  private readonly inFlight = new Map<number, InFlight>();
  private timer: NodeJS.Timeout | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private ticking: Promise<number> | undefined;
  /** Polling (start() was called). drain() works without it, until stop(). */
  private polling = false;
  private closed = false;
  private prunedAt = 0;

  constructor(
    private readonly db: Db,
    private readonly config: HookDeliveryConfig,
    private readonly log: FastifyBaseLogger,
    /** Where deliveries may not go: judged on the address each connection actually reaches. */
    private readonly outbound: OutboundPolicy,
    /** Work still running that enqueues deliveries (push processing): drain() waits for it first. */
    private readonly beforeDrain: () => Promise<void> = async () => {},
  ) {}

  private async connectionPool(delivery: HookDeliveryRow, verifySsl: boolean): Promise<Agent> {
    const policy = await outboundPolicyFor(this.db.kysely, this.outbound, delivery.hook_kind);
    const key = `${verifySsl}:${policy.allowLocal}`;
    let agent = this.agents.get(key);
    if (!agent) {
      const { Agent, buildConnector } = httpClient();
      agent = new Agent({
        connect: guardedConnector(
          buildConnector({ timeout: this.config.timeoutMs, rejectUnauthorized: verifySsl }),
          policy,
        ),
      });
      this.agents.set(key, agent);
    }
    return agent;
  }

  start(): void {
    if (this.polling || this.closed) return;
    this.polling = true;
    this.unsubscribe = onHooksEnqueued(() => this.wake());
    this.schedule();
  }

  /** Stops polling, aborts requests in flight and gives their claims back, closes connections. */
  async stop(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.polling = false;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    clearTimeout(this.wakeTimer);
    await this.ticking?.catch(() => 0);
    const running = [...this.inFlight.values()];
    for (const entry of running) entry.abort.abort();
    await Promise.all(running.map((entry) => entry.done));
    await Promise.all([...this.agents.values()].map((agent) => agent.close())).catch(() => {});
  }

  /** Look for due rows soon (new rows were enqueued). */
  wake(): void {
    if (!this.polling || this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      void this.tick();
    }, WAKE_DELAY_MS);
  }

  /**
   * Sends everything due now, including what work still running enqueues, and waits for it (tests). With `retries`, also waits out scheduled retries
   * until no pending row is left or `timeoutMs` passes.
   */
  async drain(options: { retries?: boolean; timeoutMs?: number } = {}): Promise<void> {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    await this.beforeDrain();
    for (;;) {
      // A tick already running may have looked before the caller's rows were committed: wait it out and
      // take a fresh look.
      if (this.ticking) await this.ticking;
      // With deliveries in flight a tick may find no free slot (or only busy hooks): look again after.
      const busy = this.inFlight.size;
      const claimed = await this.tick();
      await Promise.all([...this.inFlight.values()].map((entry) => entry.done));
      if (claimed > 0 || busy > 0) continue;
      if (!options.retries) return;
      if ((await repo.countPendingDeliveries(this.db.kysely)) === 0) return;
      if (Date.now() > deadline) throw new Error('hook deliveries still pending after drain timeout');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Deletes delivered and failed deliveries older than the retention (LABRADOR_HOOK_RETENTION_DAYS), in
   * batches; pending ones are never touched. `now` is a parameter so a test can look ahead in time.
   */
  async prune(now: Date = new Date()): Promise<number> {
    if (this.config.retentionDays === 0) return 0;
    const before = new Date(now.getTime() - this.config.retentionDays * 24 * 60 * 60 * 1000).toISOString();
    let total = 0;
    for (;;) {
      const deleted = await repo.pruneFinishedDeliveries(this.db.kysely, before, PRUNE_BATCH);
      total += deleted;
      if (deleted < PRUNE_BATCH || this.closed) return total;
    }
  }

  private schedule(): void {
    if (!this.polling) return;
    this.timer = setTimeout(async () => {
      await this.tick();
      if (Date.now() - this.prunedAt >= PRUNE_EVERY_MS) {
        this.prunedAt = Date.now();
        await this.prune().catch((error) => this.log.error({ err: error }, 'hook delivery: prune failed'));
      }
      this.schedule();
    }, this.config.pollIntervalMs);
    this.timer.unref();
  }

  /** Claims due rows into free slots and starts sending them; answers how many it claimed. */
  private tick(): Promise<number> {
    if (this.ticking) return this.ticking;
    this.ticking = this.claimAndSend()
      .catch((error) => {
        this.log.error({ err: error }, 'hook delivery: claim failed');
        return 0;
      })
      .finally(() => {
        this.ticking = undefined;
      });
    return this.ticking;
  }

  private async claimAndSend(): Promise<number> {
    let claimedTotal = 0;
    while (!this.closed) {
      const free = this.config.concurrency - this.inFlight.size;
      if (free <= 0) break;
      const perHook = new Map<string, number>();
      for (const entry of this.inFlight.values()) perHook.set(entry.key, (perHook.get(entry.key) ?? 0) + 1);
      const busy = [...perHook].filter(([, n]) => n >= this.config.perHookConcurrency).map(([key]) => key);

      const at = new Date();
      const candidates = await repo.dueDeliveries(this.db.kysely, at.toISOString(), free * 4, busy);
      if (candidates.length === 0) break;
      // At most perHookConcurrency in flight per hook, so one receiver's backlog cannot take every slot.
      const chosen: number[] = [];
      for (const candidate of candidates) {
        if (chosen.length >= free) break;
        const key = `${candidate.hook_kind}:${candidate.hook_id}`;
        const count = perHook.get(key) ?? 0;
        if (count >= this.config.perHookConcurrency) continue;
        perHook.set(key, count + 1);
        chosen.push(candidate.id);
      }
      const claimed = await repo.claimDeliveries(
        this.db.kysely,
        this.db.dialect,
        chosen,
        leaseAt(this.workerId, at, this.config.timeoutMs),
      );
      if (claimed.length === 0) break;
      claimedTotal += claimed.length;
      const targets = await this.targets(claimed);
      for (const delivery of claimed)
        this.launch(delivery, targets.get(`${delivery.hook_kind}:${delivery.hook_id}`));
    }
    return claimedTotal;
  }

  /** The hooks of a batch, two queries at most; a hook is read when its delivery is sent, as GitLab did. */
  private async targets(deliveries: HookDeliveryRow[]): Promise<Map<string, Target>> {
    const ids = { project: new Set<number>(), system: new Set<number>() };
    for (const delivery of deliveries) ids[delivery.hook_kind].add(delivery.hook_id);
    const [project, system] = await Promise.all([
      projectHooksByIds(this.db.kysely, [...ids.project]),
      systemHooksByIds(this.db.kysely, [...ids.system]),
    ]);
    const targets = new Map<string, Target>();
    for (const hook of project)
      targets.set(`project:${hook.id}`, { url: hook.url, verifySsl: hook.enable_ssl_verification === 1 });
    for (const hook of system)
      targets.set(`system:${hook.id}`, { url: hook.url, verifySsl: hook.enable_ssl_verification === 1 });
    return targets;
  }

  private launch(delivery: HookDeliveryRow, target: Target | undefined): void {
    const abort = new AbortController();
    const entry: InFlight = {
      delivery,
      key: `${delivery.hook_kind}:${delivery.hook_id}`,
      abort,
      done: Promise.resolve(),
    };
    entry.done = this.deliver(delivery, target, abort.signal)
      .catch((error) =>
        this.log.error({ err: error, delivery: delivery.id }, 'hook delivery: bookkeeping failed'),
      )
      .finally(() => {
        this.inFlight.delete(delivery.id);
        // A slot came free: look for more work without waiting for the next poll.
        this.wake();
      });
    this.inFlight.set(delivery.id, entry);
  }

  private async deliver(
    delivery: HookDeliveryRow,
    target: Target | undefined,
    stop: AbortSignal,
  ): Promise<void> {
    if (!target) {
      // The hook was deleted after the row was written: nothing to send it to.
      await repo.dropDelivery(this.db.kysely, delivery.id);
      return;
    }
    const startedAt = new Date();
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    let refused = false;
    try {
      statusCode = await this.post(target, delivery, stop);
    } catch (caught) {
      if (stop.aborted) {
        // Stopping, not the receiver's fault: give the claim back untried.
        await repo.releaseDeliveries(this.db.kysely, [delivery.id], this.workerId, new Date().toISOString());
        return;
      }
      error = describe(caught);
      // A target the guard refuses stays refused: no retry, and no request left.
      refused = refusal(caught) !== undefined;
    }
    const durationMs = Math.round(performance.now() - started);
    const attempts = delivery.attempts + 1;
    const at = new Date();
    const retryable =
      !refused && (statusCode === null || statusCode >= 500 || statusCode === 408 || statusCode === 429);
    let status: 'pending' | 'delivered' | 'failed';
    let nextAttemptAt = at.toISOString();
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) status = 'delivered';
    else if (retryable && attempts < this.config.maxAttempts) {
      status = 'pending';
      const backoff = Math.min(this.config.retryBaseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS);
      nextAttemptAt = new Date(at.getTime() + backoff).toISOString();
    } else status = 'failed';
    if (status !== 'delivered') {
      this.log.warn(
        {
          delivery: delivery.id,
          hook: `${delivery.hook_kind}:${delivery.hook_id}`,
          statusCode,
          error,
          attempts,
          status,
        },
        'hook delivery failed',
      );
    }
    await repo.recordDeliveryAttempt(
      this.db.kysely,
      delivery,
      this.workerId,
      { status, attempts, nextAttemptAt, at: at.toISOString() },
      { attempted_at: startedAt.toISOString(), status_code: statusCode, error, duration_ms: durationMs },
    );
  }

  /** One POST as WebHook#execute made it; answers the status code (throws on network errors/timeouts). */
  private async post(target: Target, delivery: HookDeliveryRow, stop: AbortSignal): Promise<number> {
    const url = new URL(target.url.trim());
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-Gitlab-Event': delivery.event,
      // Ours, not GitLab's: lets a receiver drop the rare duplicate (see README "Hook deliveries").
      'X-Labrador-Delivery': String(delivery.id),
    };
    // http://user:pass@host/… → the userinfo is sent as Basic auth instead (URL-unescaped).
    if (url.username || url.password) {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    const dispatcher = await this.connectionPool(delivery, target.verifySsl);
    // undici's request() never follows a redirect (no redirect interceptor here): a 3xx is the answer, so
    // a receiver cannot bounce the delivery to a local address.
    const response = await httpClient().request(url, {
      method: 'POST',
      headers,
      body: delivery.payload,
      dispatcher,
      headersTimeout: this.config.timeoutMs,
      bodyTimeout: this.config.timeoutMs,
      signal: AbortSignal.any([stop, AbortSignal.timeout(this.config.timeoutMs)]),
    });
    // The answer's body is not kept; read and discard (bounded by the same timeout).
    await response.body.dump({ limit: 1024 * 1024 }).catch(() => {});
    return response.statusCode;
  }
}

/** The guard's refusal behind an error undici may have wrapped. */
function refusal(error: unknown): OutboundRefused | undefined {
  for (let at = error, depth = 0; at && depth < 4; at = (at as { cause?: unknown }).cause, depth++) {
    if (at instanceof OutboundRefused) return at;
  }
  return undefined;
}

function describe(error: unknown): string {
  const refused = refusal(error);
  if (refused) return `refused: ${refused.reason}`;
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = (error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code;
    if (
      error.name === 'TimeoutError' ||
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT'
    )
      return 'timeout';
    const detail = cause instanceof Error ? cause.message : error.message;
    return code ? `${code}: ${detail}` : detail;
  }
  return String(error);
}
