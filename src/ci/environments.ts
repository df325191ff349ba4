// A job's `environment:` as stored in its options, and what GitLab derives from an environment's name:
// the expanded name and URL, the slug (CI_ENVIRONMENT_SLUG), the type (`review/…`) and the tier.
import { createHash } from 'node:crypto';
import { expandVariables, type VariableMap } from './rules.ts';

/** What a deploying job does to its environment: 8.13's start and stop, and today's others. */
export type EnvironmentAction = 'start' | 'prepare' | 'stop' | 'verify' | 'access';

export interface JobEnvironment {
  name: string;
  url: string | null;
  action: EnvironmentAction;
  onStop: string | null;
}

/** The `environment` of a build's options JSON (config.ts stores a name alone as `{name, action: start}`). */
export function jobEnvironment(options: string | null): JobEnvironment | null {
  if (options === null) return null;
  const value = (JSON.parse(options) as { environment?: Record<string, unknown> }).environment;
  if (!value || typeof value.name !== 'string') return null;
  return {
    name: value.name,
    url: typeof value.url === 'string' ? value.url : null,
    action: (typeof value.action === 'string' ? value.action : 'start') as EnvironmentAction,
    onStop: typeof value.on_stop === 'string' ? value.on_stop : null,
  };
}

/** The job's environment with its variables expanded in the name and URL (CreateDeploymentService). */
export function expandJobEnvironment(environment: JobEnvironment, variables: VariableMap): JobEnvironment {
  const name = expandVariables(environment.name, variables);
  // The URL may name the environment itself (`https://$CI_ENVIRONMENT_SLUG.example.com`).
  const withEnvironment = new Map(variables);
  withEnvironment.set('CI_ENVIRONMENT_NAME', name);
  withEnvironment.set('CI_ENVIRONMENT_SLUG', environmentSlug(name));
  return {
    ...environment,
    name,
    url: environment.url === null ? null : expandVariables(environment.url, withEnvironment),
  };
}

/** Environment#set_environment_type: the first segment of a name with a slash. */
export function environmentType(name: string): string | null {
  const parts = name.split('/');
  return parts.length > 1 ? parts[0]! : null;
}

/**
 * Today's Gitlab::Slug::Environment: lower-case letters and digits, starting with a letter, at most 24
 * characters; a name that had to change ends in a suffix from its SHA-256, so the slug is stable.
 */
export function environmentSlug(name: string): string {
  let slug = name.toLowerCase().replace(/[^a-z0-9]/g, '-');
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`;
  slug = slug.replace(/-+/g, '-');
  if (slug.length <= 24 && slug === name) return slug.replace(/-$/, '');
  let short = slug.slice(0, 17);
  if (!short.endsWith('-')) short += '-';
  const digest = BigInt(`0x${createHash('sha256').update(name).digest('hex')}`).toString(36);
  return short + digest.slice(-6);
}

const TIERS = ['production', 'staging', 'testing', 'development', 'other'] as const;
export type EnvironmentTier = (typeof TIERS)[number];

export const isEnvironmentTier = (value: string): value is EnvironmentTier =>
  (TIERS as readonly string[]).includes(value);

/** Environment#guess_tier: a tier from the name when none was given. */
export function guessedTier(name: string): EnvironmentTier {
  if (/(dev|review|trunk)/i.test(name)) return 'development';
  if (/(test|tst|int|ac(ce|)pt|qa|qc|control|quality)/i.test(name)) return 'testing';
  if (/(st(a|)g|mod(e|)l|pre|demo|non)/i.test(name)) return 'staging';
  if (/(pr(o|)d|live)/i.test(name)) return 'production';
  return 'other';
}

/** Gitlab::Regex.environment_name_regex (8.13's, which today's still accepts). */
export const ENVIRONMENT_NAME = /^[a-zA-Z0-9_\\/${}. -]+$/;
export const ENVIRONMENT_NAME_MESSAGE =
  "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.' and spaces";

/** An environment's tier as every wire shows it: the one given, else the one its name suggests. */
export const environmentTier = (environment: { tier: string | null; name: string }): string =>
  environment.tier ?? guessedTier(environment.name);
