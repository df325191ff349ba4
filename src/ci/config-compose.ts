// The steps today's GitLab takes on a .gitlab-ci.yml before it validates jobs: `extends:` (several
// parents and levels, hashes merged deep, everything else replaced), `!reference [job, key, …]`
// (after extends, so a reference sees the extended job), then `default:` copied into every job that
// does not set a key itself and whose `inherit: default` lets it. Errors name the job and the key.
import type YAML from 'yaml';
import { lazy } from '../lib/lazy.ts';

const yaml = lazy<typeof YAML>('yaml');

type Hash = Map<unknown, unknown>;
const isHash = (value: unknown): value is Hash => value instanceof Map;

/** A `!reference [.job, key]` as the reader leaves it, resolved by composeConfig. */
class YamlReference {
  constructor(readonly path: unknown[]) {}
}

/** The `!reference` tag for the yaml reader: a sequence that becomes a YamlReference. */
export function referenceTag(): YAML.CollectionTag {
  const Seq = yaml().YAMLSeq;
  class ReferenceSeq extends Seq {
    static tag = '!reference';
    override toJSON(arg?: unknown, ctx?: Parameters<YAML.YAMLSeq['toJSON']>[1]): unknown[] {
      // The reader's value for this node; composeConfig replaces it before anything reads it.
      return new YamlReference(super.toJSON(arg, ctx)) as unknown as unknown[];
    }
  }
  return { tag: '!reference', collection: 'seq', nodeClass: ReferenceSeq } as YAML.CollectionTag;
}

export const GLOBAL_KEYWORDS = [
  'before_script',
  'image',
  'services',
  'after_script',
  'variables',
  'stages',
  'types',
  'cache',
  'default',
  'workflow',
  'include',
];
const DEFAULT_KEYS = [
  'before_script',
  'after_script',
  'image',
  'services',
  'retry',
  'timeout',
  'interruptible',
  'tags',
  'cache',
  'artifacts',
  'hooks',
  'id_tokens',
];
const MAX_EXTENDS_DEPTH = 11;

class ComposeError extends Error {}

/** Hashes merged key by key (deep); any other value of `over` replaces `base`'s. */
function deepMerge(base: Hash, over: Hash): Hash {
  const result: Hash = new Map(base);
  for (const [key, value] of over) {
    const current = result.get(key);
    result.set(key, isHash(current) && isHash(value) ? deepMerge(current, value) : value);
  }
  return result;
}

function resolveExtends(root: Hash): void {
  const done = new Map<string, Hash>();
  const resolve = (name: string, trail: string[]): Hash => {
    const cached = done.get(name);
    if (cached) return cached;
    const config = root.get(name) as Hash;
    const parents = config.get('extends');
    if (parents === undefined || parents === null) return config;
    if (trail.includes(name))
      throw new ComposeError(`${trail[0]}: circular dependency detected in \`extends\``);
    if (trail.length >= MAX_EXTENDS_DEPTH)
      throw new ComposeError(`${trail[0]}: nesting too deep in \`extends\``);
    const list = typeof parents === 'string' ? [parents] : parents;
    if (!Array.isArray(list) || !list.every((p) => typeof p === 'string')) {
      throw new ComposeError(`jobs:${name}:extends config should be a string or an array of strings`);
    }
    let merged: Hash = new Map();
    for (const parent of list as string[]) {
      if (!isHash(root.get(parent)) || GLOBAL_KEYWORDS.includes(parent)) {
        throw new ComposeError(`${name}: unknown keys in \`extends\` (${parent})`);
      }
      merged = deepMerge(merged, resolve(parent, [...trail, name]));
    }
    const own = new Map(config);
    own.delete('extends');
    const result = deepMerge(merged, own);
    result.delete('extends');
    done.set(name, result);
    return result;
  };
  for (const [key, value] of root) {
    const name = String(key);
    if (GLOBAL_KEYWORDS.includes(name) || !isHash(value)) continue;
    root.set(key, resolve(name, []));
  }
}

function lookUp(root: Hash, reference: YamlReference, depth: number): unknown {
  const text = `!reference [${reference.path.map((p) => JSON.stringify(String(p))).join(', ')}]`;
  if (depth > 10) throw new ComposeError(`${text} is part of a circular chain`);
  let value: unknown = root;
  for (const step of reference.path) {
    if (!isHash(value) || !value.has(String(step))) throw new ComposeError(`${text} could not be found`);
    value = value.get(String(step));
  }
  return resolveReferences(root, value, depth + 1);
}

function resolveReferences(root: Hash, value: unknown, depth = 0): unknown {
  if (value instanceof YamlReference) return lookUp(root, value, depth);
  if (Array.isArray(value)) return value.map((item) => resolveReferences(root, item, depth));
  if (isHash(value)) {
    const result: Hash = new Map();
    for (const [key, item] of value) result.set(key, resolveReferences(root, item, depth));
    return result;
  }
  return value;
}

/** Whether a job takes `key` from its `inherit:` (true, false or a list of names). */
export function inherits(job: Hash, kind: 'default' | 'variables', key: string): boolean {
  const inherit = job.get('inherit');
  if (!isHash(inherit)) return true;
  const rule = inherit.get(kind);
  if (rule === undefined || rule === null || rule === true) return true;
  if (rule === false) return false;
  return Array.isArray(rule) && rule.includes(key);
}

function applyDefault(root: Hash): void {
  const defaults = root.get('default');
  if (defaults === undefined || defaults === null) return;
  if (!isHash(defaults)) throw new ComposeError('default config should be a hash');
  const unknown = [...defaults.keys()].map(String).filter((key) => !DEFAULT_KEYS.includes(key));
  if (unknown.length > 0)
    throw new ComposeError(`default config contains unknown keys: ${unknown.join(', ')}`);
  for (const [key, job] of root) {
    const name = String(key);
    if (GLOBAL_KEYWORDS.includes(name) || name.startsWith('.') || !isHash(job)) continue;
    for (const [defaultKey, value] of defaults) {
      const keyText = String(defaultKey);
      if (job.has(keyText) || !inherits(job, 'default', keyText)) continue;
      // The 8.13 global keys (before_script, image, …) are inherited later with the same rule.
      job.set(keyText, value);
    }
  }
}

function checkInherit(root: Hash): void {
  for (const [key, job] of root) {
    const name = String(key);
    if (GLOBAL_KEYWORDS.includes(name) || !isHash(job) || !job.has('inherit')) continue;
    const inherit = job.get('inherit');
    const ok =
      isHash(inherit) &&
      [...inherit].every(
        ([k, v]) =>
          (k === 'default' || k === 'variables') &&
          (typeof v === 'boolean' || (Array.isArray(v) && v.every((s) => typeof s === 'string'))),
      );
    if (!ok) {
      throw new ComposeError(
        `jobs:${name}:inherit config should be a hash of default and variables, each a boolean or an array of strings`,
      );
    }
  }
}

/** Applies extends, !reference and default to the file's root in place; the error names job and key. */
export function composeConfig(root: Hash): string | undefined {
  try {
    resolveExtends(root);
    for (const [key, value] of root) root.set(key, resolveReferences(root, value));
    checkInherit(root);
    applyDefault(root);
    return undefined;
  } catch (error) {
    if (error instanceof ComposeError) return error.message;
    throw error;
  }
}
