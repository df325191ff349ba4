// One stateless upload-pack request answered, the same way for every transport: smart HTTP's POST
// (either protocol version) and each command of a protocol v2 conversation over SSH. A v2 ls-refs is
// answered from the ref files, a full fetch from the stored answers when an identical request was
// answered before (storage/pack-cache.ts; HTTP and SSH share them), anything else by
// `git upload-pack --stateless-rpc`, whose answer to a full fetch is then kept.
import type { ChildProcess } from 'node:child_process';
import type { FileHandle } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import type { Deps } from '../../deps.ts';
import { gitConfigState } from '../../git/config-state.ts';
import { lsRefsAnswer, parseLsRefsRequest } from '../../git/protocol/ls-refs.ts';
import { startUploadPack } from '../../git/protocol/upload-pack.ts';
import { refsState } from '../../git/ref-files.ts';
import { PackCache } from '../../storage/pack-cache.ts';

export interface UploadPackRequest {
  /** The request's first bytes (at least what the store keys, CACHEABLE_REQUEST_MAX_BYTES), or all of it. */
  start: Buffer;
  /** `start` is the whole request. */
  complete: boolean;
  /** The whole request as git reads it; called only when git answers. */
  whole(): Readable;
}

export interface UploadPackAnswer {
  output: Buffer | Readable;
  /** git, when git answers: its stdout is `output`; the caller stops it if the client goes away. */
  child?: ChildProcess;
}

/**
 * A client's GIT_PROTOCOL (the HTTP header, the SSH env request) that may be passed on to git: only the
 * documented key=value[:key=value] form, for either transport.
 */
export function validGitProtocol(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9=:._-]{1,200}$/.test(value);
}

/** A client's GIT_PROTOCOL (already validated) asks for protocol version 2. */
export function wantsProtocolV2(env: Record<string, string>): boolean {
  return /version=2/.test(env.GIT_PROTOCOL ?? '');
}

/**
 * The answer to one request on `repoPath`, for a caller that has already checked access. `env` is
 * what the client sent as GIT_PROTOCOL, if anything.
 */
export async function answerUploadPackRequest(
  deps: Deps,
  repoPath: string,
  env: Record<string, string>,
  request: UploadPackRequest,
): Promise<UploadPackAnswer> {
  if (request.complete && wantsProtocolV2(env)) {
    const lsRefs = parseLsRefsRequest(request.start);
    const answer = lsRefs && (await lsRefsAnswer(repoPath, lsRefs));
    if (answer) return { output: answer };
  }
  const cached = request.complete ? await cachedAnswer(deps, repoPath, env, request.start) : null;
  if (cached?.hit) return { output: cached.hit.createReadStream() };
  const child = startUploadPack(repoPath, { stateless: true, env });
  child.stdin!.on('error', () => {});
  pipeline(request.whole(), child.stdin!, () => {});
  child.on('error', (error) => child.stdout!.destroy(error));
  if (cached?.miss) {
    const { key, refs } = cached.miss;
    // Kept only when git succeeded and the refs it answered for are still the ones in the key.
    const succeeded = new Promise<boolean>((resolve) =>
      child.on('close', (code) => {
        try {
          resolve(code === 0 && refsState(repoPath) === refs);
        } catch {
          resolve(false);
        }
      }),
    );
    child.stdout!.pipe(deps.packCache.sink(key, succeeded));
  }
  return { output: child.stdout!, child };
}

/**
 * The stored answer to this request (hit: an open file), or where to keep git's (miss), or null when the
 * request is not one whose answer is kept (see storage/pack-cache.ts).
 */
async function cachedAnswer(
  deps: Deps,
  repoPath: string,
  env: Record<string, string>,
  body: Buffer,
): Promise<{ hit?: FileHandle; miss?: { key: string; refs: string } } | null> {
  if (!(await deps.packCache.enabled)) return null;
  try {
    const refs = refsState(repoPath);
    const config = await gitConfigState(repoPath);
    // Refs git would list differently from their files are not keyed here.
    if (refs === null || !config.plain) return null;
    const key = PackCache.keyOf(
      { repoPath, refs, config: config.key, protocol: env.GIT_PROTOCOL ?? '' },
      body,
    );
    if (!key) return null;
    const hit = await deps.packCache.open(key);
    return hit ? { hit } : { miss: { key, refs } };
  } catch (error) {
    deps.log.warn({ err: error, repoPath }, 'looking up a stored upload-pack answer failed');
    return null;
  }
}
