// Git smart HTTP: info/refs, git-upload-pack and git-receive-pack, served by spawning
// `git upload-pack|receive-pack --stateless-rpc` directly and streaming both ways with backpressure. Ref listings git would answer from the ref files
// alone (receive-pack's advertisement, v2 ls-refs) are answered in process: starting git costs more than
// the answer. Other request bodies are never parsed or buffered (only their first pkt-line is looked at).
import { PassThrough, pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { FLUSH, pktLine } from '../../git/protocol/pkt-lines-out.ts';
import { uploadPackV2Advertisement } from '../../git/protocol/capabilities.ts';
import { startRefAdvertisement } from '../../git/protocol/upload-pack.ts';
import { startsWithLsRefs } from '../../git/protocol/ls-refs.ts';
import { receivePackAdvertisement } from '../../git/protocol/receive-pack-advertisement.ts';
import {
  authorizeBuildGit,
  authorizeDeployTokenGit,
  authorizeGit,
  GitAccessRefused,
  type GitAuthorization,
  type GitService,
} from '../../services/push/git-access.ts';
import { receivePackArgs, startReceivePack } from '../../services/push/receive-pack.ts';
import { CACHEABLE_REQUEST_MAX_BYTES } from '../../storage/pack-cache.ts';
import {
  answerUploadPackRequest,
  validGitProtocol,
  wantsProtocolV2,
} from '../../services/fetch/upload-pack-request.ts';
import { readRequestStart, wholeBody, type RequestStart } from './request-start.ts';
import { prestartForConnection, takePrestarted } from './receive-pack-prestart.ts';
import {
  accessDenied,
  authenticateBuild,
  authenticateDeployToken,
  authenticateGitUser,
  GitHttpError,
  REALM,
} from './auth.ts';

type Service = Extract<GitService, 'git-upload-pack' | 'git-receive-pack'>;

interface RepoParams {
  namespace: string;
  project: string;
}

function noCache(reply: FastifyReply): void {
  reply.header('Expires', 'Fri, 01 Jan 1980 00:00:00 GMT');
  reply.header('Pragma', 'no-cache');
  reply.header('Cache-Control', 'no-cache, max-age=0, must-revalidate');
}

function serviceHeader(service: Service): Buffer {
  return Buffer.concat([pktLine(`# service=${service}\n`), FLUSH]);
}

/** Longest ls-refs request read (its ref-prefix arguments); a longer body goes to git unread. */
const MAX_LS_REFS_BYTES = 1024 * 1024;

/**
 * Auth, project lookup and access: the only work before git starts (2–3 indexed queries). Users pass
 * the rules every transport shares; anonymous callers are asked for credentials rather than told what
 * they may not see, and a project hidden from a signed-in user is a plain 404. A build's token fetches
 * its own project only (authorizeBuildGit).
 */
async function authorize(
  deps: Deps,
  request: FastifyRequest<{ Params: RepoParams }>,
  service: Service,
): Promise<GitAuthorization> {
  const namespace = request.params.namespace;
  const projectPath = request.params.project.replace(/\.git$/, '');
  const build = await authenticateBuild(deps, request);
  if (build) return answerRefusal(authorizeBuildGit(deps, build, namespace, projectPath, service), false);
  const deployToken = await authenticateDeployToken(deps, request);
  if (deployToken) {
    return answerRefusal(authorizeDeployTokenGit(deps, deployToken, namespace, projectPath, service), false);
  }
  const actor = await authenticateGitUser(deps, request);
  const user = actor?.user ?? null;
  return answerRefusal(authorizeGit(deps, actor ?? { user }, namespace, projectPath, service), user === null);
}

/** A refusal in smart HTTP's words; an anonymous caller is asked to sign in unless there is no repository. */
async function answerRefusal(
  authorization: Promise<GitAuthorization>,
  anonymous: boolean,
): Promise<GitAuthorization> {
  try {
    return await authorization;
  } catch (error) {
    if (!(error instanceof GitAccessRefused)) throw error;
    if (error.reason === 'bad_credentials') throw accessDenied();
    if (anonymous && error.reason !== 'no_repository') throw accessDenied();
    if (error.reason === 'not_found') throw new GitHttpError(404, 'Not Found');
    if (error.reason === 'no_repository') throw new GitHttpError(404, error.text);
    throw new GitHttpError(403, error.text);
  }
}

function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof GitHttpError) {
    if (error.challenge) reply.header('WWW-Authenticate', `Basic realm="${REALM}"`);
    reply.headers(error.headers);
    return reply.code(error.status).type('text/plain; charset=utf-8').send(`${error.text}\n`);
  }
  throw error;
}

function gitProtocol(request: FastifyRequest): Record<string, string> {
  const header = request.headers['git-protocol'];
  return validGitProtocol(header) ? { GIT_PROTOCOL: header } : {};
}

function requestBody(request: FastifyRequest): Readable {
  const encoding = String(request.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') {
    const gunzip = zlib.createGunzip();
    pipeline(request.raw, gunzip, () => {});
    return gunzip;
  }
  return request.raw;
}

export function registerGitHttp(app: FastifyInstance, deps: Deps): void {
  app.register(async (scope) => {
    // Leave git request bodies as streams: they are piped into git, never parsed.
    scope.addContentTypeParser(
      ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request'],
      (_request, _payload, done) => done(null),
    );

    scope.get<{ Params: RepoParams; Querystring: { service?: string } }>(
      '/:namespace/:project/info/refs',
      async (request, reply) => {
        const service = request.query.service;
        if (service !== 'git-upload-pack' && service !== 'git-receive-pack') {
          // Only smart HTTP is served (no dumb protocol).
          return reply.code(403).type('text/plain; charset=utf-8').send('Unsupported service\n');
        }
        let auth: GitAuthorization;
        try {
          auth = await authorize(deps, request, service);
        } catch (error) {
          return sendError(reply, error);
        }
        const env = service === 'git-upload-pack' ? gitProtocol(request) : {};
        const v2 = wantsProtocolV2(env);
        noCache(reply);
        reply.type(`application/x-${service}-advertisement`);
        if (v2) {
          const advertisement = await uploadPackV2Advertisement(auth.repoPath, env.GIT_PROTOCOL);
          if (advertisement) return reply.send(advertisement);
        }
        if (service === 'git-receive-pack') {
          // The pack comes next on this connection: have git ready for it (receive-pack-prestart.ts).
          const socket = request.raw.socket;
          reply.raw.once('finish', () => prestartForConnection(deps, socket, auth, request.log));
          const advertisement = await receivePackAdvertisement(auth.repoPath, receivePackArgs(deps));
          if (advertisement) return reply.send(Buffer.concat([serviceHeader(service), advertisement]));
        }
        const args = service === 'git-upload-pack' ? ['upload-pack'] : receivePackArgs(deps);
        const child = startRefAdvertisement(auth.repoPath, args, env);
        child.stderr!.resume();
        const out = new PassThrough();
        // Protocol v2 starts with its capability advertisement, without the service line.
        if (!v2) out.write(serviceHeader(service));
        child.stdout!.pipe(out);
        child.on('error', (error) => out.destroy(error));
        reply.raw.on('close', () => child.exitCode === null && child.kill());
        return reply.send(out);
      },
    );

    scope.post<{ Params: RepoParams }>('/:namespace/:project/git-upload-pack', async (request, reply) => {
      let auth: GitAuthorization;
      try {
        auth = await authorize(deps, request, 'git-upload-pack');
      } catch (error) {
        return sendError(reply, error);
      }
      const env = gitProtocol(request);
      const body = requestBody(request);
      let start: RequestStart;
      try {
        // An ls-refs request whole (up to 1 MiB), any other up to what the pack cache keys.
        const enough = (bytes: Buffer) =>
          startsWithLsRefs(bytes) === false && bytes.length > CACHEABLE_REQUEST_MAX_BYTES;
        start = await readRequestStart(body, enough, MAX_LS_REFS_BYTES);
      } catch {
        // The body broke off (client gone, bad gzip): nothing to answer.
        return reply.code(400).type('text/plain; charset=utf-8').send('Bad request body\n');
      }
      noCache(reply);
      reply.type('application/x-git-upload-pack-result');
      const answer = await answerUploadPackRequest(deps, auth.repoPath, env, {
        start: start.bytes,
        complete: start.complete,
        whole: () => wholeBody(body, start),
      });
      const { child } = answer;
      if (child) {
        child.stderr!.resume();
        reply.raw.on('close', () => child.exitCode === null && child.kill());
      }
      return reply.send(answer.output);
    });

    scope.post<{ Params: RepoParams }>('/:namespace/:project/git-receive-pack', async (request, reply) => {
      let run: Awaited<ReturnType<typeof startReceivePack>>;
      try {
        const auth = await authorize(deps, request, 'git-receive-pack');
        run = await startReceivePack(deps, auth, requestBody(request), {
          protocol: 'http',
          stateless: true,
          log: request.log,
          prestarted: await takePrestarted(request.raw.socket, auth),
        });
      } catch (error) {
        return sendError(reply, error);
      }
      let stderr = '';
      run.child.stderr!.on('data', (chunk: Buffer) => {
        if (stderr.length < 4096) stderr += chunk.toString();
      });
      run.child.on('close', (code) => {
        if (code !== 0 && !run.refused()) request.log.warn({ code, stderr }, 'git receive-pack failed');
      });
      noCache(reply);
      // The response ends once the push is settled; its events, hooks and pipelines follow (deps.pushQueue).
      return reply.type('application/x-git-receive-pack-result').send(run.output);
    });
  });
}
