// What a job's options say about its limits and second chances, read by the server and the payload: its
// timeout (`timeout:`, else the project's, else GitLab's hour), `retry:` (a count or `{max, when,
// exit_codes}`; `when` defaults to `always`) and `allow_failure: {exit_codes}`.
import { parseDuration } from './durations.ts';

/** The failure reasons GitLab's Ci::Build knows (what `retry: when:` names, besides `always`). */
export const RETRY_REASONS = [
  'unknown_failure',
  'script_failure',
  'api_failure',
  'stuck_or_timeout_failure',
  'runner_system_failure',
  'runner_unsupported',
  'stale_schedule',
  'job_execution_timeout',
  'archived_failure',
  'unmet_prerequisites',
  'scheduler_failure',
  'data_integrity_failure',
];

/** GitLab's default build timeout, one hour. */
const DEFAULT_TIMEOUT_S = 3600;

type Options = Record<string, unknown>;

export const parseOptions = (text: string | null): Options =>
  text === null ? {} : (JSON.parse(text) as Options);

/** The job's timeout in seconds: its own `timeout:` wins over the project's (0: none set). */
export function jobTimeoutSeconds(options: Options, projectTimeoutS: number): number {
  const own = typeof options.timeout === 'string' ? parseDuration(options.timeout) : undefined;
  if (own !== undefined && own > 0) return own;
  return projectTimeoutS > 0 ? projectTimeoutS : DEFAULT_TIMEOUT_S;
}

const codeList = (value: unknown): number[] =>
  Number.isInteger(value) ? [value as number] : Array.isArray(value) ? value.filter(Number.isInteger) : [];

/**
 * Whether a job that failed for `reason` with `exitCode`, already retried `retries` times, is created
 * again: fewer retries than `max`, and the reason among `when` (or its exit code among `exit_codes`).
 */
export function shouldRetry(
  options: Options,
  reason: string,
  exitCode: number | null,
  retries: number,
): boolean {
  const retry = options.retry;
  const config = typeof retry === 'object' && retry !== null ? (retry as Record<string, unknown>) : {};
  const max = typeof retry === 'number' ? retry : typeof config.max === 'number' ? config.max : 0;
  if (retries >= max) return false;
  const codes = codeList(config.exit_codes);
  if (codes.length > 0 && exitCode !== null && codes.includes(exitCode)) return true;
  const when = config.when === undefined ? (codes.length > 0 ? [] : ['always']) : config.when;
  const reasons = typeof when === 'string' ? [when] : Array.isArray(when) ? when : [];
  return reasons.includes('always') || reasons.includes(reason);
}

/** `allow_failure: {exit_codes}`: a failure with one of them is allowed. */
export function isAllowedExitCode(options: Options, exitCode: number | null): boolean {
  const criteria = options.allow_failure_criteria as { exit_codes?: unknown } | undefined;
  return exitCode !== null && codeList(criteria?.exit_codes).includes(exitCode);
}
