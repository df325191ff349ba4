// GitLab's parameter handling: query string, form and JSON bodies are merged,
// path parameters win; booleans arrive as true/false/1/0 (and t/f/yes/no/on/off); blank means "not given".
import type { FastifyRequest } from 'fastify';
import { ApiError, apiError, badRequest, paramInvalid, validationFailed } from '../errors.ts';

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

/**
 * The name of the first path parameter holding a NUL byte. No GitLab name could hold one, git and the
 * file system refuse it and PostgreSQL cannot store it, so app.ts refuses it for every route before any
 * lookup; query and body text meet the same rule in the readers below.
 */
export function findNulPathParameter(request: FastifyRequest): string | undefined {
  const params = request.params as Record<string, unknown> | undefined;
  if (!params) return undefined;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string' && value.includes('\0')) return name === '*' ? 'path' : name;
  }
  return undefined;
}

export interface TextOptions {
  /**
   * Pass a NUL byte on to the caller's own check of the field, which refuses it in GitLab's words for that
   * field (a hook URL with a NUL is an invalid URL: 422 "Invalid url given"). Without it a NUL is a 400.
   */
  passNul?: boolean;
}

/** One rule for text parameters: a NUL byte is never valid (nothing could store or use it). */
function scalar(
  params: Params,
  name: string,
  options: TextOptions = {},
): string | number | boolean | undefined | null {
  const value = params[name];
  if (value === undefined || value === null) return value as undefined;
  if (typeof value === 'string') {
    if (value.includes('\0') && !options.passNul) throw paramInvalid(name);
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  throw paramInvalid(name);
}

/** A string parameter; numbers and booleans from JSON bodies are taken as their text. */
export function optionalString(params: Params, name: string, options?: TextOptions): string | undefined {
  const value = scalar(params, name, options);
  return value === undefined || value === null ? undefined : String(value);
}

/** A string parameter that is not blank (GitLab's attributes_for_keys dropped blank values). */
export function presentString(params: Params, name: string, options?: TextOptions): string | undefined {
  const value = optionalString(params, name, options);
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** A parameter sent blank (an empty or all-space text, or JSON null): given, but to clear a value. */
export function blankParam(params: Params, name: string): boolean {
  const value = params[name];
  return value === null || (typeof value === 'string' && value.trim() === '');
}

/** IssuableFinder::NONE: `0` names no user and no milestone. */
const NONE = '0';

/** An issuable's assignee_id or milestone_id: `0` is none (null), a non-number is not given. */
export function optionalLink(params: Params, name: string): number | null | undefined {
  const text = presentString(params, name)?.trim();
  if (text === undefined) return undefined;
  if (text === NONE) return null;
  return /^\d{1,10}$/.test(text) ? Number(text) : undefined;
}

/** An issuable's `labels`: comma-separated titles; an empty string is the empty set (it clears them). */
export function optionalLabelTitles(params: Params): string[] | undefined {
  const labels = optionalString(params, 'labels');
  return labels === undefined ? undefined : labels.split(',').filter((label) => label.trim() !== '');
}

/**
 * Longest search text: longer than any name, and well inside SQLite's 50,000-byte LIKE pattern limit
 * (past it the query fails); a longer one is a 400 `<name> is invalid`.
 */
const MAX_SEARCH_LENGTH = 1024;

/** A search text as read; longer than MAX_SEARCH_LENGTH → 400 `<name> is invalid`. */
export function boundedSearch<T extends string | undefined>(value: T, name = 'search'): T {
  if (value !== undefined && value.length > MAX_SEARCH_LENGTH) throw paramInvalid(name);
  return value;
}

/** Old-style required_attributes!: missing or blank → 400 `"name" not given`. */
export function requiredString(params: Params, name: string, options?: TextOptions): string {
  const value = presentString(params, name, options);
  if (value === undefined) throw badRequest(name);
  return value;
}

/**
 * A list of texts: an array (`tag_list[]=a&tag_list[]=b`, a JSON array), one text, or indexed keys
 * (`scope[0]=a&scope[1]=b`, as Rails' to_query writes a list).
 */
export function optionalStringList(params: Params, name: string): string[] | undefined {
  const value = params[name] ?? params[`${name}[]`] ?? indexedList(params, name);
  if (!Array.isArray(value)) {
    if (value !== undefined && params[name] === undefined) return optionalStringList({ [name]: value }, name);
    const text = optionalString(params, name);
    return text === undefined ? undefined : [text];
  }
  return value.map((item) => optionalString({ [name]: item }, name) ?? '');
}

/** `name[0]`, `name[1]`… keys in index order, or undefined when there are none. */
function indexedList(params: Params, name: string): unknown[] | undefined {
  const prefix = `${name}[`;
  const items = Object.entries(params)
    .filter(([key]) => key.startsWith(prefix) && /^\d+\]$/.test(key.slice(prefix.length)))
    .map(([key, item]) => [Number(key.slice(prefix.length, -1)), item] as const)
    .sort((a, b) => a[0] - b[0]);
  return items.length === 0 ? undefined : items.map(([, item]) => item);
}

/**
 * A hash parameter: a JSON object (`"info": {"name": …}`) or form keys in brackets (`info[name]=…`).
 * Its values are read with the readers here, by the caller; anything else is a 400 `<name> is invalid`.
 */
export function optionalHash(params: Params, name: string): Params | undefined {
  const value = params[name];
  if (value !== undefined && value !== null) {
    if (typeof value === 'object' && !Array.isArray(value)) return value as Params;
    throw paramInvalid(name);
  }
  const prefix = `${name}[`;
  const entries = Object.entries(params).filter(([key]) => key.startsWith(prefix) && key.endsWith(']'));
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map(([key, item]) => [key.slice(prefix.length, -1), item]));
}

/**
 * A hash of texts, `variables[KEY]=value` or a JSON object, whose refusals have their own words:
 * `notHash` when the value is no hash at all, `notTexts` when a value is not text.
 */
export function optionalTextHash(
  params: Params,
  name: string,
  refusals: { notHash: () => ApiError; notTexts: () => ApiError },
): Record<string, string> | undefined {
  const value = params[name];
  let hash: Params | undefined;
  if (value !== undefined && value !== null) {
    if (typeof value !== 'object' || Array.isArray(value)) throw refusals.notHash();
    hash = value as Params;
  } else {
    hash = optionalHash(params, name);
    if (hash === undefined) return undefined;
  }
  const texts: Record<string, string> = {};
  for (const [key, item] of Object.entries(hash)) {
    if (typeof item !== 'string') throw refusals.notTexts();
    texts[key] = item;
  }
  return texts;
}

/** A text parameter that must be one of `allowed` (any other value, or a list, is `refuse()`d). */
export function optionalOneOf<T extends string>(
  params: Params,
  name: string,
  allowed: readonly T[],
  refuse: () => ApiError,
): T | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw refuse();
  return value as T;
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

function parseInteger(value: unknown, name: string): number {
  const text = String(value).trim();
  if (!/^-?\d{1,15}$/.test(text)) throw paramInvalid(name);
  return Number(text);
}

/** GitLab's ids were 32-bit integers: nothing above this can name a record. */
const MAX_ID = 2_147_483_647;

/** A positive integer id from the path, or undefined when the segment is not one (or names no record). */
export function pathId(value: unknown): number | undefined {
  const text = String(value);
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_ID ? id : undefined;
}

/**
 * Grape's `requires :name, type: Integer` on a path segment: not digits → 400 `{"error":"name is invalid"}`.
 * An id beyond 32 bits names no record, so the caller's lookup answers its usual 404 for 0.
 */
export function pathInteger(params: Params, name: string): number {
  const text = String(params[name] ?? '');
  if (!/^\d+$/.test(text)) throw paramInvalid(name);
  return pathId(text) ?? 0;
}

/** GitLab's to_boolean: a recognised word, or undefined for anything else (which changes nothing). */
export function toBoolean(params: Params, name: string): boolean | undefined {
  const value = params[name];
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value !== 'string') return undefined;
  if (value.includes('\0')) throw paramInvalid(name);
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/** A text parameter holding a NUL byte: a value GitLab's models would refuse as invalid. */
function holdsNul(params: Params, name: string): boolean {
  const raw = params[name];
  return typeof raw === 'string' && raw.includes('\0');
}

/**
 * Required text parameters reported as a validation hash, `{"message":{"title":["can't be blank"]}}`
 * (what keys and emails answer, where GitLab's own `"title" not given` string would differ).
 */
export function requiredFields<T extends string>(params: Params, names: T[]): Record<T, string> {
  const values = {} as Record<T, string>;
  const problems: Record<string, string[]> = {};
  for (const name of names) {
    const value = holdsNul(params, name) ? null : presentString(params, name);
    if (value === null) problems[name] = ['is invalid'];
    else if (value === undefined) problems[name] = ["can't be blank"];
    else values[name] = value;
  }
  if (Object.keys(problems).length > 0) throw validationFailed(problems);
  return values;
}

/**
 * A model's optional text attributes, blank ones dropped (attributes_for_keys). A NUL byte is a value
 * the model refuses: `{"message":{"email":["is invalid"]}}`, with the status the route answers its
 * validation failures with.
 */
export function presentAttributes<T extends string>(
  params: Params,
  names: readonly T[],
  failureStatus = 400,
): Partial<Record<T, string>> {
  const invalid = names.filter((name) => holdsNul(params, name));
  if (invalid.length > 0) {
    throw validationFailed(Object.fromEntries(invalid.map((name) => [name, ['is invalid']])), failureStatus);
  }
  const values: Partial<Record<T, string>> = {};
  for (const name of names) {
    const value = presentString(params, name);
    if (value !== undefined) values[name] = value;
  }
  return values;
}

/** `array` takes a list of objects (Grape's `type: Array` of hashes). */
export type GrapeKind = 'integer' | 'date' | 'string' | 'array';
export interface GrapeParam {
  name: string;
  kind: GrapeKind;
  required: boolean;
}
export type GrapeValues = Record<string, number | string | null | undefined | Params[]>;

/**
 * Parameters declared with Grape's DSL (`requires`/`optional` with a type): every problem is reported at
 * once in one `error` string, `{"error":"user_id is missing, access_level is invalid"}`. A blank date is
 * null (it clears the value); an absent one is undefined.
 */
export function grapeParams(params: Params, specs: GrapeParam[]): GrapeValues {
  const problems: string[] = [];
  const values: GrapeValues = {};
  for (const spec of specs) {
    if (spec.kind === 'array') {
      const list = params[spec.name];
      if (list === undefined || list === null) {
        if (spec.required) problems.push(`${spec.name} is missing`);
      } else if (
        !Array.isArray(list) ||
        !list.every((item) => item && typeof item === 'object' && !Array.isArray(item))
      ) {
        problems.push(`${spec.name} is invalid`);
      } else {
        values[spec.name] = list as Params[];
      }
      continue;
    }
    let raw: string | undefined;
    try {
      raw = optionalString(params, spec.name);
    } catch {
      problems.push(`${spec.name} is invalid`);
      continue;
    }
    if (raw === undefined || (spec.kind === 'integer' && raw.trim() === '')) {
      if (spec.required) problems.push(`${spec.name} is missing`);
      continue;
    }
    if (spec.kind === 'string') {
      values[spec.name] = raw;
      continue;
    }
    if (spec.kind === 'integer') {
      if (!/^\s*-?\d{1,10}\s*$/.test(raw) || Math.abs(Number(raw)) > MAX_ID)
        problems.push(`${spec.name} is invalid`);
      else values[spec.name] = Number(raw);
      continue;
    }
    const text = raw.trim();
    if (text === '') {
      values[spec.name] = null;
      continue;
    }
    const day = calendarDay(text);
    if (day === undefined) problems.push(`${spec.name} is invalid`);
    else values[spec.name] = day;
  }
  if (problems.length > 0) throw new ApiError(400, { error: problems.join(', ') });
  return values;
}

/** The day (YYYY-MM-DD) of a date or date-time text, or undefined when it is not a real calendar day. */
function calendarDay(text: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  if (!match) return undefined;
  const day = `${match[1]}-${match[2]}-${match[3]}`;
  return isCalendarDay(day) ? day : undefined;
}

/** Whether a YYYY-MM-DD names a day of the calendar (2016-02-30 does not). */
export function isCalendarDay(day: string): boolean {
  const parsed = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed) && new Date(parsed).toISOString().slice(0, 10) === day;
}

/**
 * A day parameter as the issue and milestone APIs read it (`due_date`): the YYYY-MM-DD its text starts
 * with; null when it starts with no calendar day; undefined when absent.
 */
export function optionalDay(params: Params, name: string): string | null | undefined {
  const text = presentString(params, name)?.trim();
  if (text === undefined) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return null;
  const day = `${match[1]}-${match[2]}-${match[3]}`;
  return isCalendarDay(day) ? day : null;
}

/**
 * GitLab's datetime_attributes!: an ISO 8601 time (Ruby's Time.xmlschema; a date alone is midnight UTC),
 * as milliseconds since the epoch; anything else is a 400 naming the expected format.
 */
export function optionalTimestamp(params: Params, name: string): number | undefined {
  const text = presentString(params, name)?.trim();
  if (text === undefined) return undefined;
  const match = /^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d):(\d\d)(\.\d+)?(Z|[+-]\d\d(?::?\d\d)?)?)?$/i.exec(
    text,
  );
  const time = match ? Date.parse(isoWithZone(match)) : NaN;
  if (Number.isNaN(time)) {
    throw apiError(400, `"${name}" must be a timestamp in ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ`);
  }
  return time;
}

function isoWithZone(match: RegExpExecArray): string {
  const [, year, month, day, hours = '00', minutes = '00', seconds = '00', fraction = '', zone = 'Z'] = match;
  const offset =
    zone.toUpperCase() === 'Z'
      ? 'Z'
      : zone.length === 3
        ? `${zone}:00`
        : zone.replace(/^(.\d\d)(\d\d)$/, '$1:$2');
  return `${year}-${month}-${day}T${hours}:${minutes}:${seconds}${fraction.slice(0, 4)}${offset}`;
}
