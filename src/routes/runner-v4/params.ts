// Credentials as runner 17 sends them: the runner token as `token` in the JSON body (and in the
// RUNNER-TOKEN header, common/consts.go:196), the job token as JOB-TOKEN (common/consts.go:195) or `token`.
import type { FastifyRequest } from 'fastify';
import { optionalString, requestParams } from '../../http/params.ts';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function runnerToken(request: FastifyRequest): string | undefined {
  return optionalString(requestParams(request), 'token') ?? header(request, 'runner-token');
}

export function jobToken(request: FastifyRequest): string | undefined {
  return header(request, 'job-token') ?? optionalString(requestParams(request), 'token');
}
