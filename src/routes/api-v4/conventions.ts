// What v4 does differently from v3 at the edge of every route, once: a DELETE answers 204 with no
// body, and parameters that v4 only renamed are read under their v3 names, so one parameter reader (and
// one service call) serves both versions. Each resource names its renames in one table beside its routes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestParams, type Params } from '../../http/params.ts';
import { paramsMissing } from '../../errors.ts';

/** v4's answer to a DELETE that removed something: 204, no body. */
export function noContent(reply: FastifyReply): FastifyReply {
  return reply.status(204).send();
}

/** `{ v4Name: 'v3_name' }`: a parameter v4 renamed and nothing else. */
export type Renames = Readonly<Record<string, string>>;

/**
 * The request's parameters with v4's names also given under v3's (a v4 name wins over a v3 one sent
 * beside it), for the readers the v3 routes already use.
 */
export function v4Params(request: FastifyRequest, renames: Renames): Params {
  const params = requestParams(request);
  const renamed: Params = { ...params };
  for (const [v4Name, v3Name] of Object.entries(renames)) {
    if (params[v4Name] !== undefined) renamed[v3Name] = params[v4Name];
  }
  return renamed;
}

/** Grape's `requires`: 400 `{"error":"a is missing, b is missing"}` for those absent or blank. */
export function requireParams(params: Params, ...names: string[]): void {
  const missing = names.filter(
    (name) => params[name] === undefined || params[name] === null || params[name] === '',
  );
  if (missing.length > 0) throw paramsMissing(...missing);
}

/**
 * v4 takes a list as an array (JSON, `name[]=`) where v3 took only a comma-separated string (labels):
 * the params with each of these as the comma string v3's readers parse.
 */
export function commaLists(params: Params, ...names: string[]): Params {
  const joined: Params = { ...params };
  for (const name of names) {
    const value = params[name] ?? params[`${name}[]`];
    if (Array.isArray(value)) joined[name] = value.map(String).join(',');
    else if (value !== undefined) joined[name] = value;
  }
  return joined;
}
