// The one error type that crosses into HTTP, and every GitLab 8.13 error text in one place.
// Three different 404 spellings are deliberate: clients match on them.

export type ErrorBody = Record<string, unknown> | null;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
    /** The messages per field behind a body that holds them only as text (see `failedWith`), for pages. */
    readonly fields?: Record<string, string[]>,
  ) {
    super(typeof body?.message === 'string' ? body.message : `HTTP ${status}`);
  }
}

/** A path no route matches: Grape's `{"error":"404 Not Found"}`. */
export const routeNotFound = () => new ApiError(404, { error: '404 Not Found' });

/** `404 <Resource> Not Found`, or `404 Not Found` without a resource (GitLab's not_found!). */
export const notFound = (resource?: string) =>
  new ApiError(404, { message: resource ? `404 ${resource} Not Found` : '404 Not Found' });

/** `404 Not found` (lower-case): what a missed ActiveRecord find produced. */
export const recordNotFound = () => new ApiError(404, { message: '404 Not found' });

/**
 * A row read back after this request's own write: missing only when a concurrent delete (of it or of
 * its project) won the race, which the caller answers as a 404 rather than a 500.
 */
export function reloaded<T>(row: T | undefined, resource?: string): T {
  if (row === undefined) throw resource ? notFound(resource) : recordNotFound();
  return row;
}

export const unauthorized = () => new ApiError(401, { message: '401 Unauthorized' });

/** GitLab joined the reason with a double space: `403 Forbidden  - <reason>`. */
export const forbidden = (reason?: string) =>
  new ApiError(403, { message: reason ? `403 Forbidden  - ${reason}` : '403 Forbidden' });

/** Old-style required_attributes!: `400 (Bad request) "name" not given` (v4 says `name is missing`). */
export class AttributeNotGiven extends ApiError {
  constructor(readonly attribute: string) {
    super(400, { message: `400 (Bad request) "${attribute}" not given` });
  }
}

export const badRequest = (attribute: string) => new AttributeNotGiven(attribute);

/** Grape-DSL parameter validation: `{"error":"name is missing"}`, joined with ", " for several. */
export const paramsMissing = (...names: string[]) =>
  new ApiError(400, { error: names.map((name) => `${name} is missing`).join(', ') });

export const paramInvalid = (name: string) => new ApiError(400, { error: `${name} is invalid` });

/** A parameter whose value is not one of the allowed ones. */
export const paramValueInvalid = (name: string) =>
  new ApiError(400, { error: `${name} does not have a valid value` });

/** render_validation_error!: `{"message":{"field":["text", …]}}`. */
export const validationFailed = (errors: Record<string, string[]>, status = 400) =>
  new ApiError(status, { message: errors });

export const conflict = (message: string | Record<string, string[]> = '409 Conflict') =>
  new ApiError(409, { message });

/** render_api_error!: any status with `{"message": "<text>"}`. */
export const apiError = (status: number, message: string) => new ApiError(status, { message });

/**
 * render_api_error! with a model's errors interpolated as Ruby printed the hash, as GitLab answered a few
 * failed saves: `{"message":"Failed to save group {:path=>[\"has already been taken\"]}"}`. The fields
 * travel beside the text so a page can say them in words.
 */
export function failedWith(prefix: string, errors: Record<string, string[]>, status = 400): ApiError {
  const quote = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const inspected = Object.entries(errors).map(
    ([field, messages]) => `:${field}=>[${messages.map(quote).join(', ')}]`,
  );
  return new ApiError(status, { message: `${prefix} {${inspected.join(', ')}}` }, {}, errors);
}

/** Grape error!: any status with `{"error": "<text>"}`. */
export const grapeError = (status: number, error: unknown) => new ApiError(status, { error });

/** 304 with no body (star of a starred project, unstar of an unstarred one). */
export const notModified = () => new ApiError(304, null);

/** Collects validation messages per field, in the order GitLab's models checked them. */
export class ValidationErrors {
  readonly errors: Record<string, string[]> = {};
  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
  has(field: string): boolean {
    return field in this.errors;
  }
  /** Throws the GitLab validation body (400 unless told otherwise) when anything was added. */
  throwIfAny(status = 400): void {
    if (!this.empty) throw validationFailed(this.errors, status);
  }
}

/** render_api_error!({ error: text }, 400): `{"message":{"error":"<text>"}}` (the boards API's refusals). */
export const errorInMessage = (text: string, status = 400) =>
  new ApiError(status, { message: { error: text } });
