// The `page` of a paged list page: 1-based, bounded (an absurd page is a 400, not a long walk).
import type { FastifyRequest } from 'fastify';
import { optionalInteger, requestParams } from '../../http/params.ts';
import { paramInvalid } from '../../errors.ts';

const MAX_PAGE = 10_000;

export function pageNumber(request: FastifyRequest): number {
  const page = optionalInteger(requestParams(request), 'page') ?? 1;
  if (page < 1 || page > MAX_PAGE) throw paramInvalid('page');
  return page;
}
