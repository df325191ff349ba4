// Parameters every runner route reads the same way: the runner's `info`, the build token (header
// BUILD-TOKEN or parameter `token`) and the build id in the path. The `.json` suffix the runner sends
// (`builds/register.json`) is dropped before routing (http/url-normalise.ts).
import type { FastifyRequest } from 'fastify';
import {
  optionalHash,
  optionalString,
  presentString,
  requestParams,
  type Params,
} from '../../http/params.ts';
import type { RunnerInfo } from '../../services/ci/runners.ts';

/** The `info` a runner sends about itself (name, version, revision, platform, architecture). */
export function runnerInfo(params: Params): RunnerInfo {
  const info = optionalHash(params, 'info') ?? {};
  return {
    name: presentString(info, 'name'),
    version: presentString(info, 'version'),
    revision: presentString(info, 'revision'),
    platform: presentString(info, 'platform'),
    architecture: presentString(info, 'architecture'),
  };
}

/** The build token of a per-build call: the `token` parameter, else the BUILD-TOKEN header. */
export function buildToken(request: FastifyRequest): string | undefined {
  const header = request.headers['build-token'];
  return optionalString(requestParams(request), 'token') ?? (typeof header === 'string' ? header : undefined);
}

/** The `:id` path segment as sent (`42`, `-1`). */
export function buildIdSegment(request: FastifyRequest): string {
  return String((request.params as Record<string, unknown>).id ?? '');
}
