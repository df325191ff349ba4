// GitLab's parameter handling (reference/api-v3.md §1.1): query string, form and JSON bodies are merged,
// path parameters win; booleans arrive as true/false/1/0 (and t/f/yes/no/on/off); blank means "not given".
import type { FastifyRequest } from 'fastify';
import { badRequest, paramInvalid, paramsMissing } from './errors.ts';

export type Params = Record<string, unknown>;

export function requestParams(request: FastifyRequest): Params {
  const body = request.body;
  const fromBody =
    body && typeof body === 'object' && !Buffer.isBuffer(body) && !Array.isArray(body) ? body : {};
  return {
    ...(request.query as Params),
    ...(fromBody as Params),
    ...(request.params as Params),
  };
}

function scalar(params: Params, name: string): string | number | boolean | undefined | null {
  const value = params[name];
  if (value === undefined || value === null) return value as undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  throw paramInvalid(name);
}

/** A string parameter; numbers and booleans from JSON bodies are taken as their text. */
export function optionalString(params: Params, name: string): string | undefined {
  const value = scalar(params, name);
  return value === undefined || value === null ? undefined : String(value);
}

/** A string parameter that is not blank (GitLab's attributes_for_keys dropped blank values). */
export function presentString(params: Params, name: string): string | undefined {
  const value = optionalString(params, name);
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** Old-style required_attributes!: missing or blank → 400 `"name" not given`. */
export function requiredString(params: Params, name: string): string {
  const value = presentString(params, name);
  if (value === undefined) throw badRequest(name);
  return value;
}

/** Grape-DSL `requires`: every missing name is reported at once, `{"error":"a is missing, b is missing"}`. */
export function requireAll(params: Params, ...names: string[]): void {
  const missing = names.filter((name) => presentString(params, name) === undefined);
  if (missing.length > 0) throw paramsMissing(...missing);
}

const TRUE_WORDS = new Set(['true', 't', 'yes', 'y', '1', 'on']);
const FALSE_WORDS = new Set(['false', 'f', 'no', 'n', '0', 'off']);

/** A boolean parameter; anything that is not a recognised boolean word is a 400. */
export function optionalBoolean(params: Params, name: string): boolean | undefined {
  const value = scalar(params, name);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  const word = String(value).trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  throw paramInvalid(name);
}

/** An integer parameter (JSON number or decimal text); anything else is a 400 `<name> is invalid`. */
export function optionalInteger(params: Params, name: string): number | undefined {
  const value = scalar(params, name);
  if (value === undefined || value === null || value === '') return undefined;
  return parseInteger(value, name);
}

export function parseInteger(value: unknown, name: string): number {
  const text = String(value).trim();
  if (!/^-?\d{1,15}$/.test(text)) throw paramInvalid(name);
  return Number(text);
}

/** A positive integer id from the path, or undefined when the segment is not one. */
export function pathId(value: unknown): number | undefined {
  const text = String(value);
  if (!/^\d{1,9}$/.test(text)) return undefined;
  return Number(text);
}
