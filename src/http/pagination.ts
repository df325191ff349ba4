// GitLab 8.13's Kaminari pagination: page (default 1), per_page (default 20,
// at most 100; bad values fall back to the defaults), X-* headers and a Link header whose URLs carry
// every request parameter, sorted, with page and per_page replaced. Under /api/v4 bad values are refused
// as GitLab's v4 refuses them (text: `page is invalid`; below 1: `page does not have a valid value`).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { paramInvalid, paramValueInvalid } from '../errors.ts';
import { requestParams } from './params.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on every request of the /api/v4 scope: its parameters are checked as v4 checks them. */
    apiV4?: boolean;
  }
}

const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;
// Far past any real list, and small enough that page × per_page stays an exact 64-bit offset in SQL.
const MAX_PAGE = 1_000_000_000;

export interface Page {
  page: number;
  perPage: number;
  offset: number;
  limit: number;
}

function positive(value: unknown): number | undefined {
  const number =
    typeof value === 'number' ? value : /^\s*\d+\s*$/.test(String(value ?? '')) ? Number(value) : NaN;
  return Number.isInteger(number) && number >= 1 ? number : undefined;
}

/** v4's `optional :page, type: Integer`: blank is the default, text or below 1 a 400. */
function strictPositive(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const text = String(value).trim();
  if (!/^[-+]?\d+$/.test(text)) throw paramInvalid(name);
  const number = Number(text);
  if (number < 1) throw paramValueInvalid(name);
  return number;
}

export function parsePage(request: FastifyRequest): Page {
  const params = requestParams(request);
  const read = (value: unknown, name: string) =>
    request.apiV4 ? strictPositive(value, name) : positive(value);
  const page = Math.min(read(params.page, 'page') ?? 1, MAX_PAGE);
  const perPage = Math.min(read(params.per_page, 'per_page') ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
  return { page, perPage, offset: (page - 1) * perPage, limit: perPage };
}

function encodeQuery(params: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value)
        parts.push(`${encodeURIComponent(key)}%5B%5D=${encodeURIComponent(String(item))}`);
    } else if (typeof value !== 'object') {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
  }
  return parts.join('&');
}

/**
 * `total` undefined: the list is longer than anyone counts (see paginateCapped); X-Total, X-Total-Pages
 * and the `last` link are left out, as GitLab did later for such lists, and `hasNext` says whether
 * another page follows.
 */
export function setPaginationHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  baseUrl: string,
  page: Page,
  total: number | undefined,
  hasNext = false,
): void {
  const totalPages = total === undefined ? undefined : Math.ceil(total / page.perPage);
  const next = totalPages === undefined ? hasNext : page.page < totalPages;
  const params = requestParams(request);
  const path = request.url.split('?')[0];
  const link = (target: number) =>
    `<${baseUrl}${path}?${encodeQuery({ ...params, page: target, per_page: page.perPage })}>`;
  const links: string[] = [];
  if (page.page > 1) links.push(`${link(page.page - 1)}; rel="prev"`);
  if (next) links.push(`${link(page.page + 1)}; rel="next"`);
  links.push(`${link(1)}; rel="first"`);
  if (totalPages !== undefined) links.push(`${link(totalPages)}; rel="last"`);
  reply.headers({
    Link: links.join(', '),
    ...(total !== undefined ? { 'X-Total': String(total), 'X-Total-Pages': String(totalPages) } : {}),
    'X-Per-Page': String(page.perPage),
    'X-Page': String(page.page),
    'X-Next-Page': next ? String(page.page + 1) : '',
    'X-Prev-Page': page.page > 1 ? String(page.page - 1) : '',
  });
}

/**
 * A keyset page's one header (GitLab's Keyset::HeaderBuilder): a `next` Link whose URL carries every
 * request parameter with `bounds` (id_after or id_before) set past the page's last row. No X-* headers:
 * a keyset list is not counted.
 */
export function setKeysetLink(
  request: FastifyRequest,
  reply: FastifyReply,
  baseUrl: string,
  bounds: Record<string, number>,
): void {
  const path = request.url.split('?')[0];
  const query = encodeQuery({ ...requestParams(request), ...bounds });
  reply.header('Link', `<${baseUrl}${path}?${query}>; rel="next"`);
}

/**
 * Runs a list's count and page queries and sets the headers. The page query must apply the offset on an
 * index before joining (a deferred join), so deep pages cost what page 1 costs.
 */
export async function paginate<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  baseUrl: string,
  count: () => Promise<number>,
  fetch: (page: Page) => Promise<T[]>,
): Promise<T[]> {
  const page = parsePage(request);
  const [total, rows] = await Promise.all([count(), fetch(page)]);
  setPaginationHeaders(request, reply, baseUrl, page, total);
  return rows;
}

/** Lists that may hold millions of rows count no further than this (GitLab's later cap, for the same reason). */
const COUNT_CAP = 10_000;

/**
 * paginate for lists that can grow without bound (builds, pipelines). `count(cap)` answers the total, or
 * undefined when it only knows there are more than `cap` (a count that walks at most cap + 1 index
 * entries, so X-Total costs the same at a million rows as at a hundred). Without a total, X-Total,
 * X-Total-Pages and the `last` link are left out, as GitLab later did for such lists, and one extra row
 * tells whether a next page exists.
 */
export async function paginateCapped<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  baseUrl: string,
  count: (cap: number) => Promise<number | undefined>,
  fetch: (page: Page) => Promise<T[]>,
): Promise<T[]> {
  const page = parsePage(request);
  const [total, rows] = await Promise.all([count(COUNT_CAP), fetch({ ...page, limit: page.limit + 1 })]);
  setPaginationHeaders(request, reply, baseUrl, page, total, rows.length > page.limit);
  return rows.slice(0, page.limit);
}

/** paginate for a list already read whole (a user's keys or emails; branches and tags, which one git read gives whole): one read, sliced here. */
export function paginateLoaded<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  baseUrl: string,
  rows: T[],
): T[] {
  const page = parsePage(request);
  setPaginationHeaders(request, reply, baseUrl, page, rows.length);
  return rows.slice(page.offset, page.offset + page.limit);
}
