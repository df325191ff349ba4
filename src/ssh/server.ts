// The built-in SSH server for git (ssh2, a pure-JavaScript SSH2 implementation): public-key
// authentication only, against users' keys and deploy keys; one command per session, run by
// git-session.ts. Limits: a connection must authenticate within authTimeoutMs, at most maxSessions
// connections at once (more are closed at once), few authentication attempts, no pty, no forwarding.
import crypto from 'node:crypto';
import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type {
  AuthContext,
  CipherAlgorithm,
  ClientInfo,
  Connection,
  Server,
  ServerChannel,
  Session,
} from 'ssh2';
import type { Deps } from '../deps.ts';
import { findSshKeyOwner, type SshKeyOwner } from '../services/users/ssh-keys.ts';
import type { Worker } from '../workers/worker.ts';
import { lazy } from '../lib/lazy.ts';
import { loadHostKeys, type HostKey } from './host-keys.ts';
import { greet, runCommand } from './git-session.ts';
import { validGitProtocol } from '../services/fetch/upload-pack-request.ts';

/** Loaded when the SSH server starts (LABRADOR_SSH_PORT=0 never does): it costs each start. */
const ssh2 = lazy<typeof import('ssh2')>('ssh2');

const CIPHERS: CipherAlgorithm[] = [
  'aes128-gcm@openssh.com',
  'aes256-gcm@openssh.com',
  'aes128-ctr',
  'aes192-ctr',
  'aes256-ctr',
];

/** OpenSSH's MaxAuthTries default. */
const MAX_AUTH_ATTEMPTS = 6;

/**
 * Data sent to an OpenSSH client ahead of what it has passed on to git. OpenSSH grants a 2 MiB window
 * and holds whatever arrives before git reads it in a buffer that grows 32 KiB at a time by copying
 * itself whole: a clone of a 3 MB pack, sent as fast as the window allowed, cost the client ~55 ms of
 * system time (100 mmap/munmap pairs), against ~5 ms with this cap. OpenSSH acknowledges as soon as
 * more than three packets are outstanding and git has read anything (channel_check_window in its
 * channels.c, unchanged for over a decade), so a cap above that never stalls the stream. Other clients
 * keep the whole window: some (PuTTY) acknowledge only once half of it is used.
 */
const OPENSSH_IN_FLIGHT_BYTES = 256 * 1024;

function isOpenSsh(info: ClientInfo): boolean {
  return /^OpenSSH_/.test(info.header?.versions?.software ?? '');
}

/** Sends at most OPENSSH_IN_FLIGHT_BYTES (or eight of the client's packets) unacknowledged. */
function limitInFlight(channel: ServerChannel): void {
  // ssh2 keeps the peer's window here (typed `unknown`); whatever is not yet sent waits for adjusts.
  const outgoing = channel.outgoing as { window?: unknown; packetSize?: unknown } | undefined;
  if (typeof outgoing?.window !== 'number' || typeof outgoing.packetSize !== 'number') return;
  outgoing.window = Math.min(outgoing.window, Math.max(OPENSSH_IN_FLIGHT_BYTES, 8 * outgoing.packetSize));
}

export interface SshServerOptions {
  host: string;
  port: number;
  maxSessions: number;
  authTimeoutMs: number;
  hostKeys: HostKey[];
}

/** The key the client signed with is the stored key, and the signature is good. */
function verified(ctx: AuthContext & { method: 'publickey' }, owner: SshKeyOwner): boolean {
  const stored = ssh2().utils.parseKey(owner.key.key);
  if (stored instanceof Error) return false;
  const storedKey = Array.isArray(stored) ? stored[0] : stored;
  if (!storedKey) return false;
  const wire = storedKey.getPublicSSH();
  if (wire.length !== ctx.key.data.length || !crypto.timingSafeEqual(wire, ctx.key.data)) return false;
  if (!ctx.signature) return true;
  return storedKey.verify(ctx.blob!, ctx.signature, ctx.hashAlgo as never) === true;
}

/** One TCP connection: closed by the timer unless it authenticates first. */
interface Entry {
  socket: net.Socket;
  timer: NodeJS.Timeout;
  client?: Connection;
  busy: boolean;
}

class SshServer implements Worker {
  readonly name = 'ssh';
  private readonly ssh: Server;
  /** Accepts TCP connections (and counts them against the cap) before handing them to the SSH layer. */
  private readonly listener: net.Server;
  /** Open connections by remote address and port (how the SSH layer names them too). */
  private readonly entries = new Map<string, Entry>();
  private stopping = false;

  constructor(
    private readonly deps: Deps,
    private readonly options: SshServerOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.ssh = new (ssh2().Server)(
      {
        hostKeys: options.hostKeys.map((key) => key.privateKey),
        ident: 'Labrador',
        // AES through Node's crypto (hardware-accelerated). The client's order decides: OpenSSH asks for
        // chacha20-poly1305 first (not offered: the library computes it partly in JavaScript unless its
        // optional native addon was built), then the CTR modes, so it settles on aes128-ctr with an
        // encrypt-then-MAC HMAC, both native too; GCM serves clients that list it first.
        algorithms: { cipher: CIPHERS },
      },
      (client, info) => this.accept(client, this.entries.get(`${info.ip}:${info.port}`), isOpenSsh(info)),
    );
    this.ssh.on('error', (error: Error) => log.error({ err: error }, 'ssh server error'));
    this.listener = net.createServer((socket) => this.onSocket(socket));
    // Past the cap Node closes new connections at once, before any SSH work is spent on them.
    this.listener.maxConnections = options.maxSessions;
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.listener.once('error', reject);
      this.listener.listen(this.options.port, this.options.host, () => {
        this.listener.off('error', reject);
        this.listener.on('error', (error) => this.log.error({ err: error }, 'ssh listener error'));
        const address = this.listener.address();
        resolve(typeof address === 'object' && address ? address.port : this.options.port);
      });
    });
  }

  private onSocket(socket: net.Socket): void {
    const name = `${socket.remoteAddress}:${socket.remotePort}`;
    const timer = setTimeout(() => {
      this.log.info({ remote: name }, 'ssh: authentication timed out');
      socket.destroy();
    }, this.options.authTimeoutMs);
    this.entries.set(name, { socket, timer, busy: false });
    socket.once('close', () => {
      clearTimeout(timer);
      this.entries.delete(name);
    });
    socket.on('error', () => {});
    // Each step of the handshake is a small write answered by the client; with Nagle's algorithm on, a
    // write waits for the ACK of the one before, which the client delays (up to 40 ms on Linux).
    socket.setNoDelay(true);
    this.ssh.injectSocket(socket);
  }

  private accept(client: Connection, entry: Entry | undefined, openSsh: boolean): void {
    if (!entry) {
      client.end();
      return;
    }
    entry.client = client;
    let owner: SshKeyOwner | undefined;
    let attempts = 0;
    client.on('error', (error) => this.log.debug({ err: error }, 'ssh connection error'));

    client.on('authentication', (ctx) => {
      this.deps.db.requestArrived();
      if (ctx.method !== 'publickey') return ctx.reject(['publickey']);
      if (++attempts > MAX_AUTH_ATTEMPTS) {
        ctx.reject([]);
        client.end();
        return;
      }
      findSshKeyOwner(this.deps, ctx.key.data).then(
        (found) => {
          if (!found || !verified(ctx, found)) return ctx.reject(['publickey']);
          // Without a signature the client only asks whether this key would do.
          if (ctx.signature) owner = found;
          ctx.accept();
        },
        (error) => {
          this.log.error({ err: error }, 'ssh: key lookup failed');
          ctx.reject(['publickey']);
        },
      );
    });

    client.on('ready', () => {
      clearTimeout(entry.timer);
      client.on('session', (acceptSession, rejectSession) => {
        // One command at a time per connection: the cap on connections is the cap on sessions.
        if (entry.busy || this.stopping) return rejectSession();
        entry.busy = true;
        const session = acceptSession();
        this.serveSession(session, owner!, openSsh, () => {
          entry.busy = false;
          if (this.stopping) client.end();
        });
      });
    });
  }

  private serveSession(session: Session, owner: SshKeyOwner, openSsh: boolean, done: () => void): void {
    const env: Record<string, string> = {};
    let started = false;
    session.on('close', () => !started && done());
    session.on('env', (accept, reject, info) => {
      if (info.key === 'GIT_PROTOCOL' && validGitProtocol(info.val)) {
        env.GIT_PROTOCOL = info.val;
        accept?.();
      } else {
        reject?.();
      }
    });
    session.on('pty', (_accept, reject) => reject?.());
    session.on('x11', (_accept, reject) => reject?.());
    session.on('auth-agent', (_accept, reject) => reject?.());
    session.on('sftp', (_accept, reject) => reject?.());
    session.on('subsystem', (_accept, reject) => reject?.());
    session.on('shell', (accept) => {
      started = true;
      greet(accept(), owner);
      done();
    });
    session.on('exec', (accept, _reject, info) => {
      started = true;
      const channel: ServerChannel = accept();
      if (openSsh) limitInFlight(channel);
      const context = { deps: this.deps, owner, env, log: this.log };
      runCommand(context, channel, info.command)
        .catch((error) => {
          this.log.error({ err: error }, 'ssh command failed');
          if (!channel.destroyed) {
            channel.stderr.write('GitLab: Failed to authorize your Git request: internal API unreachable\n');
            channel.exit(1);
            channel.end();
          }
        })
        .finally(done);
    });
  }

  /** Connections open now (authenticating or not). */
  connectionCount(): number {
    return this.entries.size;
  }

  /** Stops accepting; idle connections close now, running commands finish first. */
  async stop(): Promise<void> {
    this.stopping = true;
    const closed = new Promise<void>((resolve) => this.listener.close(() => resolve()));
    for (const entry of this.entries.values()) {
      // Connections that are still authenticating or idle have nothing to finish.
      if (entry.busy) continue;
      if (entry.client) entry.client.end();
      else entry.socket.destroy();
    }
    await closed;
  }
}

export interface StartedSsh {
  server: SshServer;
  port: number;
  hostKeys: HostKey[];
}

/** Host keys from the data dir (made on first start), then listening on the configured address. */
export async function startSshServer(
  deps: Deps,
  log: FastifyBaseLogger,
  overrides: Partial<SshServerOptions> = {},
): Promise<StartedSsh> {
  const { config } = deps;
  const hostKeys = overrides.hostKeys ?? (await loadHostKeys(config.dataDir));
  const server = new SshServer(
    deps,
    {
      host: config.host,
      port: config.ssh.port,
      maxSessions: config.ssh.maxSessions,
      authTimeoutMs: config.ssh.authTimeoutMs,
      ...overrides,
      hostKeys,
    },
    log,
  );
  const port = await server.listen();
  return { server, port, hostKeys };
}
