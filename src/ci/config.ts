// .gitlab-ci.yml as GitLab 8.13 read it: parsed with YAML 1.1 rules (anchors and `<<` merge keys on),
// validated entry by entry with GitLab's error texts ("jobs:rspec config contains unknown keys: foo"),
// the first error being the pipeline's yaml_errors, then turned into the jobs a pipeline creates.
//
// Global keys are before_script, image, services, after_script, variables, stages (types is the old
// name), cache; every other top-level key is a job, and a key starting with "." is a hidden job (a
// template for anchors). A job inherits the global before_script, image, services, after_script,
// variables and cache it does not set itself.
import type YAML from 'yaml';
import { lazy } from '../lib/lazy.ts';
import { parseDuration } from './durations.ts';
import { RETRY_REASONS } from './job-limits.ts';
import { isValidRefPattern } from './ref-policy.ts';
import { composeConfig, GLOBAL_KEYWORDS, inherits, referenceTag } from './config-compose.ts';
import { parseExpression, type CiRule } from './rules.ts';
import { ciTemplate } from './templates.ts';
import type { CiWhen } from '../domain/types.ts';

const yaml = lazy<typeof YAML>('yaml');

export interface YamlVariable {
  key: string;
  value: string;
  public: true;
}

/** One job of the file, as a build is created from it. */
export interface CiJob {
  name: string;
  stage: string;
  stageIdx: number;
  /** before_script + script, one command per line. */
  commands: string;
  tagList: string[];
  allowFailure: boolean;
  when: CiWhen;
  /** The environment's name, when the job deploys to one. */
  environment: string | null;
  yamlVariables: YamlVariable[];
  /** What the runner gets as `options`: only the keys the job has, in GitLab's order. */
  options: Record<string, unknown>;
  only: string[] | null;
  except: string[] | null;
  /** `rules:`; null when the job has none (then only/except decide). */
  rules: CiRule[] | null;
  /** `needs:`; null when the job has none. */
  needs: CiNeed[] | null;
}

export interface CiNeed {
  job: string;
  artifacts: boolean;
  optional: boolean;
}

export interface CiWorkflow {
  rules: CiRule[] | null;
  name: string | null;
}

export interface CiConfig {
  stages: string[];
  jobs: CiJob[];
  workflow: CiWorkflow;
  /** The file's global `variables:`, which rules and workflow rules see. */
  variables: Record<string, string>;
}

export type CiConfigResult = { config: CiConfig; error?: undefined } | { config?: undefined; error: string };

const DEFAULT_STAGES = ['build', 'test', 'deploy'];
const GLOBAL_KEYS = GLOBAL_KEYWORDS;
const JOB_KEYS = [
  'tags',
  'script',
  'only',
  'except',
  'type',
  'image',
  'services',
  'allow_failure',
  'stage',
  'when',
  'artifacts',
  'cache',
  'dependencies',
  'before_script',
  'after_script',
  'variables',
  'environment',
  'rules',
  'needs',
  'inherit',
  'retry',
  'timeout',
  'interruptible',
  'start_in',
  'coverage',
  'parallel',
  'resource_group',
];
type InheritedKey = 'before_script' | 'image' | 'services' | 'after_script' | 'variables' | 'cache';
const WHEN_VALUES = ['on_success', 'on_failure', 'always', 'manual', 'delayed'];
/** What `retry: when:` may name. */
const RETRY_WHEN = ['always', ...RETRY_REASONS];
/** `allow_failure: {exit_codes: 1 | [1, 2]}` as a list; undefined when it is not that shape. */
function exitCodes(value: unknown): number[] | undefined {
  if (!isHash(value) || unknownKeys(value, ['exit_codes']).length > 0) return undefined;
  const codes = entry(value, 'exit_codes');
  const list = Number.isInteger(codes) ? [codes] : codes;
  return Array.isArray(list) && list.length > 0 && list.every((c) => Number.isInteger(c))
    ? (list as number[])
    : undefined;
}
const RULE_KEYS = ['if', 'changes', 'exists', 'when', 'allow_failure', 'start_in', 'variables'];
const RULE_WHEN = ['on_success', 'on_failure', 'always', 'manual', 'delayed', 'never'];
const ENVIRONMENT_NAME = /^[a-zA-Z0-9_\\/${}. -]+$/;
const ENVIRONMENT_NAME_MESSAGE =
  "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.' and spaces";

type Hash = Map<unknown, unknown>;

const isHash = (value: unknown): value is Hash => value instanceof Map;
const isString = (value: unknown): value is string => typeof value === 'string';
const isArrayOfStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
/** Rails' blank?: nil, false, empty strings (also all-whitespace), empty collections. */
const isBlank = (value: unknown): boolean =>
  value === null ||
  value === undefined ||
  value === false ||
  (isString(value) && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0) ||
  (isHash(value) && value.size === 0);

/** A hash's entry by name (keys are strings for every entry a YAML author can mean). */
const entry = (hash: Hash, key: string): unknown => hash.get(key);
const keyName = (key: unknown): string => String(key);

/**
 * Messages of one entry, grouped by attribute in first-use order as Rails' errors were, each written
 * `<location> <attribute humanized> <message>` and downcased.
 */
class EntryErrors {
  private readonly byAttribute = new Map<string, string[]>();
  constructor(private readonly location: string) {}

  add(attribute: string, message: string): void {
    const list = this.byAttribute.get(attribute) ?? [];
    list.push(message);
    this.byAttribute.set(attribute, list);
  }

  messages(): string[] {
    const result: string[] = [];
    for (const [attribute, list] of this.byAttribute) {
      for (const message of list) {
        result.push(`${this.location} ${attribute.replace(/_/g, ' ')} ${message}`.toLowerCase());
      }
    }
    return result;
  }
}

function unknownKeys(config: unknown, allowed: string[]): string[] {
  if (!isHash(config)) return [];
  return [...config.keys()].map(keyName).filter((key) => !allowed.includes(key));
}

/** A leaf entry with one rule on its whole value. */
function leafErrors(location: string, value: unknown, valid: boolean, message: string): string[] {
  if (value === null || value === undefined || valid) return [];
  const errors = new EntryErrors(location);
  errors.add('config', message);
  return errors.messages();
}

const scriptErrors = (location: string, value: unknown) =>
  leafErrors(location, value, isNestedStrings(value), 'should be an array of strings');

/** Today's scripts: strings, or arrays nested up to 10 levels (anchors and !reference make them). */
function isNestedStrings(value: unknown, depth = 0): boolean {
  return (
    Array.isArray(value) && depth < 10 && value.every((v) => isString(v) || isNestedStrings(v, depth + 1))
  );
}

const flatStrings = (value: unknown): string[] =>
  isString(value) ? [value] : Array.isArray(value) ? value.flatMap(flatStrings) : [];

function rulesErrors(location: string, value: unknown, workflow = false): string[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) return [`${location} config should be an array of hashes`];
  const messages: string[] = [];
  for (const rule of value) {
    const at = `${location}:rule`;
    if (!isHash(rule)) {
      messages.push(`${at} config should be a hash`);
      continue;
    }
    const unknown = unknownKeys(
      rule,
      workflow ? ['if', 'changes', 'exists', 'when', 'variables'] : RULE_KEYS,
    );
    if (unknown.length > 0) messages.push(`${at} config contains unknown keys: ${unknown.join(', ')}`);
    const condition = entry(rule, 'if');
    if (condition != null) {
      if (!isString(condition)) messages.push(`${at} if should be a string`);
      else {
        try {
          parseExpression(condition);
        } catch {
          messages.push(`${at} if invalid expression syntax`);
        }
      }
    }
    for (const key of ['changes', 'exists']) {
      const paths = entry(rule, key);
      const list = isHash(paths) ? entry(paths, 'paths') : paths;
      if (paths != null && !isArrayOfStrings(list))
        messages.push(`${at}:${key} config should be an array of strings`);
    }
    const when = entry(rule, 'when');
    const allowed = workflow ? ['always', 'never'] : RULE_WHEN;
    if (when != null && !allowed.includes(when as string))
      messages.push(`${at} when unknown value: ${String(when)}`);
    if (when === 'delayed' && !isString(entry(rule, 'start_in')))
      messages.push(`${at} start in should be a duration`);
    const allowFailure = entry(rule, 'allow_failure');
    if (allowFailure != null && !isBoolean(allowFailure))
      messages.push(`${at} allow failure should be a boolean value`);
    messages.push(...variablesErrors(`${at}:variables`, entry(rule, 'variables')));
  }
  return messages;
}

function needsErrors(location: string, value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const ok =
    Array.isArray(value) &&
    value.every(
      (need) =>
        isString(need) ||
        (isHash(need) &&
          isString(entry(need, 'job')) &&
          unknownKeys(need, ['job', 'artifacts', 'optional']).length === 0),
    );
  return ok
    ? []
    : [`${location} config should be an array of job names or hashes with job, artifacts, optional`];
}

const imageErrors = (location: string, value: unknown) =>
  leafErrors(location, value, isString(value), 'should be a string');

const variablesErrors = (location: string, value: unknown) =>
  leafErrors(
    location,
    value,
    isHash(value) && [...value.entries()].every(([k, v]) => isString(k) && isString(v)),
    'should be a hash of key value pairs',
  );

function cacheErrors(location: string, value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const errors = new EntryErrors(location);
  if (!isHash(value)) errors.add('config', 'should be a hash');
  const unknown = unknownKeys(value, ['key', 'untracked', 'paths']);
  if (unknown.length > 0) errors.add('config', `contains unknown keys: ${unknown.join(', ')}`);
  const own = errors.messages();
  if (own.length > 0 || !isHash(value)) return own;
  return [
    ...leafErrors(
      `${location}:key`,
      entry(value, 'key'),
      isString(entry(value, 'key')),
      'should be a string or symbol',
    ),
    ...leafErrors(
      `${location}:untracked`,
      entry(value, 'untracked'),
      isBoolean(entry(value, 'untracked')),
      'should be a boolean value',
    ),
    ...leafErrors(
      `${location}:paths`,
      entry(value, 'paths'),
      isArrayOfStrings(entry(value, 'paths')),
      'should be an array of strings',
    ),
  ];
}

/** `artifacts:reports` keys today's GitLab accepts; all but coverage_report name paths. */
const REPORT_KEYS = [
  'junit',
  'codequality',
  'sast',
  'secret_detection',
  'dependency_scanning',
  'container_scanning',
  'dast',
  'performance',
  'browser_performance',
  'load_performance',
  'license_scanning',
  'metrics',
  'lsif',
  'dotenv',
  'terraform',
  'accessibility',
  'coverage_fuzzing',
  'api_fuzzing',
  'cluster_image_scanning',
  'requirements',
  'requirements_v2',
  'coverage_report',
  'cyclonedx',
  'annotations',
  'repository_xray',
];
const COVERAGE_FORMATS = ['cobertura'];
const ARTIFACTS_KEYS = [
  'name',
  'untracked',
  'paths',
  'reports',
  'when',
  'expire_in',
  'expose_as',
  'exclude',
  'public',
  'access',
];
const EXPOSE_AS = /^\w[-\w ]*$/;

function reportsErrors(location: string, value: unknown): string[] {
  const errors = new EntryErrors(location);
  if (!isHash(value)) errors.add('config', 'should be a hash');
  const unknown = unknownKeys(value, REPORT_KEYS);
  if (unknown.length > 0) errors.add('config', `contains unknown keys: ${unknown.join(', ')}`);
  if (!isHash(value)) return errors.messages();
  for (const [key, paths] of value) {
    const name = keyName(key);
    if (name === 'coverage_report' || !REPORT_KEYS.includes(name) || paths == null) continue;
    if (!isString(paths) && !isArrayOfStrings(paths))
      errors.add(name, 'should be an array of strings or a string');
  }
  const own = errors.messages();
  const coverage = entry(value, 'coverage_report');
  if (coverage == null) return own;
  const at = new EntryErrors(`${location}:coverage_report`);
  if (!isHash(coverage)) at.add('config', 'should be a hash');
  const unknownCoverage = unknownKeys(coverage, ['coverage_format', 'path']);
  if (unknownCoverage.length > 0) at.add('config', `contains unknown keys: ${unknownCoverage.join(', ')}`);
  const format = isHash(coverage) ? entry(coverage, 'coverage_format') : undefined;
  if (isBlank(format)) at.add('coverage_format', "can't be blank");
  if (!COVERAGE_FORMATS.includes(format as string))
    at.add('coverage_format', `must be one of supported formats: ${COVERAGE_FORMATS.join(', ')}.`);
  const path = isHash(coverage) ? entry(coverage, 'path') : undefined;
  if (isBlank(path)) at.add('path', "can't be blank");
  if (!isString(path)) at.add('path', 'should be a string');
  return [...own, ...at.messages()];
}

function artifactsErrors(location: string, value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const errors = new EntryErrors(location);
  if (!isHash(value)) errors.add('config', 'should be a hash');
  const unknown = unknownKeys(value, ARTIFACTS_KEYS);
  if (unknown.length > 0) errors.add('config', `contains unknown keys: ${unknown.join(', ')}`);
  if (isHash(value)) {
    const exposeAs = entry(value, 'expose_as');
    const paths = entry(value, 'paths');
    if (exposeAs != null && isBlank(paths)) errors.add('paths', "can't be blank");
    if (entry(value, 'access') != null && entry(value, 'public') != null)
      errors.add('config', 'these keys cannot be used together: access, public');
    const name = entry(value, 'name');
    if (name != null && !isString(name)) errors.add('name', 'should be a string');
    const isPublic = entry(value, 'public');
    if (isPublic != null && !isBoolean(isPublic)) errors.add('public', 'should be a boolean value');
    const untracked = entry(value, 'untracked');
    if (untracked != null && !isBoolean(untracked)) errors.add('untracked', 'should be a boolean value');
    if (paths != null && !isArrayOfStrings(paths)) errors.add('paths', 'should be an array of strings');
    if (exposeAs != null) {
      if (isArrayOfStrings(paths) && paths.some((p) => p.includes('*')))
        errors.add('paths', "can't contain '*' when used with 'expose_as'");
      if (!isString(exposeAs)) errors.add('expose_as', 'should be a string');
      else {
        if (exposeAs.length > 100) errors.add('expose_as', 'is too long (maximum is 100 characters)');
        if (!EXPOSE_AS.test(exposeAs))
          errors.add('expose_as', "can contain only letters, digits, '-', '_' and spaces");
      }
    }
    const exclude = entry(value, 'exclude');
    if (exclude != null && !isArrayOfStrings(exclude)) errors.add('exclude', 'should be an array of strings');
    const reports = entry(value, 'reports');
    if (reports != null && !isHash(reports)) errors.add('reports', 'should be a hash');
    const when = entry(value, 'when');
    if (when != null && !['on_success', 'on_failure', 'always'].includes(when as string)) {
      errors.add('when', 'should be on_success, on_failure or always');
    }
    const expireIn = entry(value, 'expire_in');
    if (expireIn != null && !(isString(expireIn) && parseDuration(expireIn) !== undefined)) {
      errors.add('expire_in', 'should be a duration');
    }
    const access = entry(value, 'access');
    if (access != null && !['none', 'developer', 'all'].includes(access as string))
      errors.add('access', 'should be one of: none, developer, all');
    const own = errors.messages();
    if (own.length > 0 || reports == null) return own;
    return reportsErrors(`${location}:reports`, reports);
  }
  return errors.messages();
}

/** The artifacts option as the runner payload reads it: each report's paths as a list. */
function artifactsOption(value: unknown): unknown {
  if (!isHash(value)) return value;
  const reports = entry(value, 'reports');
  if (!isHash(reports)) return value;
  const normal: Hash = new Map();
  for (const [key, paths] of reports) {
    if (paths == null) continue;
    normal.set(key, isString(paths) ? [paths] : paths);
  }
  return new Map([...value, ['reports', normal]]);
}

function isAddressableUrl(url: string): boolean {
  if (!/^(?:https?|ssh|git):\/\/\S+$/i.test(url)) return false;
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

/** The environment's value: a name alone means `{name, action: start}`. */
function environmentValue(value: unknown): Hash {
  if (isString(value)) {
    return new Map<unknown, unknown>([
      ['name', value],
      ['action', 'start'],
    ]);
  }
  return isHash(value) ? value : new Map();
}

function environmentErrors(location: string, value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const errors = new EntryErrors(location);
  if (!isHash(value) && !isString(value)) errors.add('config', 'should be a hash or a string');
  const name = entry(environmentValue(value), 'name');
  if (isBlank(name)) errors.add('name', "can't be blank");
  if (!isString(name)) errors.add('name', ENVIRONMENT_NAME_MESSAGE);
  if (!ENVIRONMENT_NAME.test(isString(name) ? name : String(name ?? ''))) {
    errors.add('name', ENVIRONMENT_NAME_MESSAGE);
  }
  if (isHash(value)) {
    const unknown = unknownKeys(value, ['name', 'url', 'action', 'on_stop']);
    if (unknown.length > 0) errors.add('config', `contains unknown keys: ${unknown.join(', ')}`);
    const url = entry(value, 'url');
    if (url != null) {
      if (String(url).length > 255) errors.add('url', 'is too long (maximum is 255 characters)');
      if (!isString(url) || !isAddressableUrl(url)) errors.add('url', 'must be a valid URL');
    }
    const action = entry(value, 'action');
    // 8.13's start and stop, and today's prepare, verify and access (no deployment).
    if (action != null && !['start', 'stop', 'prepare', 'verify', 'access'].includes(action as string))
      errors.add('action', 'should be start or stop');
    const onStop = entry(value, 'on_stop');
    if (onStop != null && !isString(onStop)) errors.add('on_stop', 'should be a string');
  }
  return errors.messages();
}

const refsErrors = (location: string, value: unknown) =>
  leafErrors(
    location,
    value,
    Array.isArray(value) && value.every((pattern) => isString(pattern) && isValidRefPattern(pattern)),
    'should be an array of strings or regexps',
  );

function jobErrors(location: string, name: unknown, config: unknown): string[] {
  const errors = new EntryErrors(location);
  if (!isHash(config)) errors.add('config', 'should be a hash');
  const unknown = unknownKeys(config, JOB_KEYS);
  if (unknown.length > 0) errors.add('config', `contains unknown keys: ${unknown.join(', ')}`);
  if (isBlank(config)) errors.add('config', "can't be blank");
  if (isBlank(name)) errors.add('name', "can't be blank");
  if (!isString(name)) errors.add('name', 'should be a symbol');
  if (isHash(config)) {
    const tags = entry(config, 'tags');
    if (tags != null && !isArrayOfStrings(tags)) errors.add('tags', 'should be an array of strings');
    const allowFailure = entry(config, 'allow_failure');
    // 8.13's message, unless a hash (today's exit_codes) was meant.
    if (allowFailure != null && !isBoolean(allowFailure) && exitCodes(allowFailure) === undefined)
      errors.add(
        'allow_failure',
        isHash(allowFailure) ? 'should be a hash of exit_codes' : 'should be a boolean value',
      );
    const when = entry(config, 'when');
    if (when != null && !WHEN_VALUES.includes(when as string)) {
      errors.add('when', 'should be on_success, on_failure, always or manual');
    }
    if (entry(config, 'rules') != null) {
      const mixed = ['only', 'except'].filter((key) => entry(config, key) != null);
      if (mixed.length > 0) errors.add('config', `key may not be used with \`rules\`: ${mixed.join(', ')}`);
    }
    if (when === 'delayed' && !isString(entry(config, 'start_in')))
      errors.add('start_in', 'should be a duration');
    const startIn = entry(config, 'start_in');
    if (startIn != null && !(isString(startIn) && parseDuration(startIn) !== undefined))
      errors.add('start_in', 'should be a duration');
    const timeout = entry(config, 'timeout');
    if (timeout != null && !(isString(timeout) && parseDuration(timeout) !== undefined))
      errors.add('timeout', 'config should be a duration');
    const resourceGroup = entry(config, 'resource_group');
    if (resourceGroup != null && !isString(resourceGroup)) errors.add('resource_group', 'should be a string');
    const interruptible = entry(config, 'interruptible');
    if (interruptible != null && !isBoolean(interruptible))
      errors.add('interruptible', 'config should be a boolean value');
    const retry = entry(config, 'retry');
    const retryMax = isHash(retry) ? entry(retry, 'max') : retry;
    if (
      retry != null &&
      !(Number.isInteger(retryMax) && (retryMax as number) >= 0 && (retryMax as number) <= 2)
    )
      errors.add('retry', 'config should be an integer from 0 to 2, or a hash with max');
    if (isHash(retry)) {
      const unknown = unknownKeys(retry, ['max', 'when', 'exit_codes']);
      if (unknown.length > 0) errors.add('retry', `config contains unknown keys: ${unknown.join(', ')}`);
      const retryWhen = entry(retry, 'when');
      const reasons = isString(retryWhen) ? [retryWhen] : retryWhen;
      if (retryWhen != null && !(isArrayOfStrings(reasons) && reasons.every((r) => RETRY_WHEN.includes(r))))
        errors.add('retry', `when should be one of: ${RETRY_WHEN.join(', ')}`);
      const codes = entry(retry, 'exit_codes');
      if (codes != null && exitCodes(new Map([['exit_codes', codes]])) === undefined)
        errors.add('retry', 'exit codes should be an integer or an array of integers');
    }
    const parallel = entry(config, 'parallel');
    if (parallel != null && parallelInstances(parallel) === undefined) {
      errors.add('parallel', 'should be an integer from 1 to 200, or a hash with a matrix of up to 200 jobs');
    }
    const dependencies = entry(config, 'dependencies');
    if (dependencies != null && !isArrayOfStrings(dependencies)) {
      errors.add('dependencies', 'should be an array of strings');
    }
  }
  const own = errors.messages();
  if (own.length > 0 || !isHash(config)) return own;
  const at = (key: string) => `${location}:${key}`;
  const script = entry(config, 'script');
  // `type` is the old name of `stage`: its errors count only when `stage` is not given.
  const stageKey = entry(config, 'stage') == null && entry(config, 'type') != null ? 'type' : 'stage';
  return [
    ...scriptErrors(at('before_script'), entry(config, 'before_script')),
    ...leafErrors(
      at('script'),
      script,
      isString(script) || isNestedStrings(script),
      'should be a string or an array of strings',
    ),
    ...leafErrors(
      at(stageKey),
      entry(config, stageKey),
      isString(entry(config, stageKey)),
      'should be a string',
    ),
    ...scriptErrors(at('after_script'), entry(config, 'after_script')),
    ...cacheErrors(at('cache'), entry(config, 'cache')),
    ...imageErrors(at('image'), entry(config, 'image')),
    ...leafErrors(
      at('services'),
      entry(config, 'services'),
      isArrayOfStrings(entry(config, 'services')),
      'should be an array of strings',
    ),
    ...refsErrors(at('only'), entry(config, 'only')),
    ...refsErrors(at('except'), entry(config, 'except')),
    ...variablesErrors(at('variables'), entry(config, 'variables')),
    ...artifactsErrors(at('artifacts'), entry(config, 'artifacts')),
    ...environmentErrors(at('environment'), entry(config, 'environment')),
    ...rulesErrors(at('rules'), entry(config, 'rules')),
    ...needsErrors(at('needs'), entry(config, 'needs')),
  ];
}

/** Where a job's name appears in messages; an empty name reads "job", as Rails' humanized class did. */
const jobLocation = (name: unknown) => `jobs:${isBlank(name) ? 'job' : keyName(name)}`;
const isHidden = (name: unknown) => keyName(name).startsWith('.');

function workflowErrors(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (!isHash(value)) return ['workflow config should be a hash'];
  const unknown = unknownKeys(value, ['rules', 'name']);
  if (unknown.length > 0) return [`workflow config contains unknown keys: ${unknown.join(', ')}`];
  const name = entry(value, 'name');
  if (name != null && !isString(name)) return ['workflow name should be a string'];
  return rulesErrors('workflow:rules', entry(value, 'rules'), true);
}

/** Every validation message in GitLab's order; the first one is what a pipeline shows. */
function configErrors(root: Hash): string[] {
  const stagesKey = entry(root, 'stages') == null && entry(root, 'types') != null ? 'types' : 'stages';
  const messages = [
    ...scriptErrors('before_script', entry(root, 'before_script')),
    ...imageErrors('image', entry(root, 'image')),
    ...leafErrors(
      'services',
      entry(root, 'services'),
      isArrayOfStrings(entry(root, 'services')),
      'should be an array of strings',
    ),
    ...scriptErrors('after_script', entry(root, 'after_script')),
    ...variablesErrors('variables', entry(root, 'variables')),
    ...leafErrors(
      stagesKey,
      entry(root, stagesKey),
      isArrayOfStrings(entry(root, stagesKey)),
      'should be an array of strings',
    ),
    ...cacheErrors('cache', entry(root, 'cache')),
    ...workflowErrors(entry(root, 'workflow')),
  ];
  const jobs = [...root.entries()].filter(([key]) => !GLOBAL_KEYS.includes(keyName(key)));
  if (!jobs.some(([name]) => !isHidden(name)))
    messages.push('jobs config should contain at least one visible job');
  for (const [name, config] of jobs) {
    if (isHidden(name)) {
      if (isBlank(config)) messages.push(`jobs:${keyName(name)} config can't be blank`);
    } else {
      // An empty job (`job:` alone, or false) is an empty hash to GitLab.
      const value = config === null || config === undefined || config === false ? new Map() : config;
      messages.push(...jobErrors(jobLocation(name), name, value));
    }
  }
  return messages;
}

/** Plain JSON values from YAML values (maps become objects, keeping their order). */
function plain(value: unknown): unknown {
  if (isHash(value)) {
    const result: Record<string, unknown> = {};
    for (const [key, item] of value) result[keyName(key)] = plain(item);
    return result;
  }
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Date) return value.toISOString();
  return value;
}

/** The cache's given keys, in GitLab's order (key, untracked, paths) whatever the file's order. */
function cacheOption(cache: unknown): Hash | undefined {
  if (!isHash(cache)) return undefined;
  const result: Hash = new Map();
  for (const key of ['key', 'untracked', 'paths']) {
    if (entry(cache, key) != null) result.set(key, entry(cache, key));
  }
  return result;
}

interface GlobalEntries {
  before_script: unknown;
  image: unknown;
  services: unknown;
  after_script: unknown;
  variables: unknown;
  cache: unknown;
}

function buildJob(name: string, config: Hash, global: GlobalEntries, stages: string[]): CiJob {
  // The 8.13 global keys are today's defaults: `inherit: default` decides them too.
  const own = (key: InheritedKey) =>
    entry(config, key) ?? (key === 'variables' || inherits(config, 'default', key) ? global[key] : undefined);
  const stage = (entry(config, 'stage') ?? entry(config, 'type') ?? 'test') as string;
  const commands = [...flatStrings(own('before_script')), ...flatStrings(entry(config, 'script'))];
  const variables = new Map<string, string>();
  if (isHash(global.variables)) {
    for (const [key, value] of global.variables) {
      if (inherits(config, 'variables', keyName(key))) variables.set(keyName(key), value as string);
    }
  }
  const jobOwn = entry(config, 'variables');
  if (isHash(jobOwn)) for (const [key, value] of jobOwn) variables.set(keyName(key), value as string);
  const when = (entry(config, 'when') as CiWhen | undefined) ?? 'on_success';
  const environment = entry(config, 'environment');
  const options: Record<string, unknown> = {};
  const option = (key: string, value: unknown) => {
    if (value !== null && value !== undefined) options[key] = plain(value);
  };
  option('image', own('image'));
  option('services', own('services'));
  option('artifacts', artifactsOption(entry(config, 'artifacts')));
  option('cache', cacheOption(own('cache')));
  option('dependencies', entry(config, 'dependencies'));
  option('after_script', flatOrUndefined(own('after_script')));
  option('environment', environment == null ? undefined : environmentValue(environment));
  option('retry', entry(config, 'retry'));
  const allowedCodes = exitCodes(entry(config, 'allow_failure'));
  if (allowedCodes) options.allow_failure_criteria = { exit_codes: allowedCodes };
  option('timeout', entry(config, 'timeout'));
  option('interruptible', entry(config, 'interruptible'));
  option('resource_group', entry(config, 'resource_group'));
  option('start_in', when === 'delayed' ? entry(config, 'start_in') : undefined);
  const needs = needsList(entry(config, 'needs'));
  if (needs) options.needs = needs;
  // Artifacts come from what a job needs unless it names its dependencies itself.
  if (needs && entry(config, 'dependencies') == null) {
    options.dependencies = needs.filter((need) => need.artifacts).map((need) => need.job);
  }
  return {
    name,
    stage,
    stageIdx: stages.indexOf(stage),
    commands: commands.join('\n'),
    tagList: (entry(config, 'tags') as string[] | undefined) ?? [],
    allowFailure: entry(config, 'allow_failure') === true,
    // A delayed job waits as scheduled for its start_in (kept in options) once its predecessors succeed.
    when,
    environment:
      environment == null ? null : ((entry(environmentValue(environment), 'name') as string) ?? null),
    yamlVariables: [...variables].map(([key, value]) => ({ key, value, public: true as const })),
    options,
    only: (entry(config, 'only') as string[] | undefined) ?? null,
    except: (entry(config, 'except') as string[] | undefined) ?? null,
    rules: rulesList(entry(config, 'rules')),
    needs,
  };
}

/** Matrix values as GitLab names jobs with them: a scalar, or each value of a list. */
const matrixValues = (value: unknown): string[] | undefined =>
  isString(value) || typeof value === 'number'
    ? [String(value)]
    : Array.isArray(value) && value.every((v) => isString(v) || typeof v === 'number')
      ? value.map(String)
      : undefined;

/**
 * The instances `parallel:` makes, each with its name suffix and variables; undefined when the value
 * is not valid. `N` makes `name i/N`; `matrix:` makes `name: [v1, v2]` per combination of values.
 */
function parallelInstances(
  value: unknown,
): Array<{ suffix: string; variables: Array<[string, string]> }> | undefined {
  if (Number.isInteger(value)) {
    const total = value as number;
    if (total < 1 || total > 200) return undefined;
    return Array.from({ length: total }, (_, i) => ({ suffix: ` ${i + 1}/${total}`, variables: [] }));
  }
  const matrix = isHash(value) ? entry(value, 'matrix') : undefined;
  if (!Array.isArray(matrix) || matrix.length === 0) return undefined;
  const result: Array<{ suffix: string; variables: Array<[string, string]> }> = [];
  for (const row of matrix) {
    if (!isHash(row) || row.size === 0) return undefined;
    let combos: Array<Array<[string, string]>> = [[]];
    for (const [key, raw] of row) {
      const values = matrixValues(raw);
      if (!values || values.length === 0) return undefined;
      combos = combos.flatMap((combo) =>
        values.map((v) => [...combo, [keyName(key), v] as [string, string]]),
      );
    }
    for (const combo of combos)
      result.push({ suffix: `: [${combo.map(([, v]) => v).join(', ')}]`, variables: combo });
  }
  return result.length > 200 ? undefined : result;
}

/** Parallel jobs as their instances (CI_NODE_INDEX, CI_NODE_TOTAL); needs and dependencies follow. */
function expandParallel(built: Map<string, CiJob>, configs: Map<string, Hash>): CiJob[] {
  const instancesOf = new Map<string, string[]>();
  const result: CiJob[] = [];
  for (const [name, job] of built) {
    const parallel = entry(configs.get(name)!, 'parallel');
    const instances = parallel == null ? undefined : parallelInstances(parallel);
    if (!instances) {
      result.push(job);
      continue;
    }
    instancesOf.set(
      name,
      instances.map((instance) => `${name}${instance.suffix}`),
    );
    instances.forEach((instance, i) => {
      const variables = new Map(job.yamlVariables.map((v) => [v.key, v.value]));
      for (const [key, value] of instance.variables) variables.set(key, value);
      variables.set('CI_NODE_INDEX', String(i + 1));
      variables.set('CI_NODE_TOTAL', String(instances.length));
      result.push({
        ...job,
        name: `${name}${instance.suffix}`,
        options: { ...job.options },
        yamlVariables: [...variables].map(([key, value]) => ({ key, value, public: true as const })),
      });
    });
  }
  if (instancesOf.size === 0) return result;
  const expand = (names: string[]) => names.flatMap((n) => instancesOf.get(n) ?? [n]);
  for (const job of result) {
    if (job.needs)
      job.needs = job.needs.flatMap((need) =>
        (instancesOf.get(need.job) ?? [need.job]).map((n) => ({ ...need, job: n })),
      );
    if (job.options.dependencies) job.options.dependencies = expand(job.options.dependencies as string[]);
    if (job.options.needs) job.options.needs = job.needs;
  }
  return result;
}

const flatOrUndefined = (value: unknown) => (value == null ? undefined : flatStrings(value));

function needsList(value: unknown): CiNeed[] | null {
  if (!Array.isArray(value)) return null;
  return value.map((need) =>
    isString(need)
      ? { job: need, artifacts: true, optional: false }
      : {
          job: entry(need as Hash, 'job') as string,
          artifacts: entry(need as Hash, 'artifacts') !== false,
          optional: entry(need as Hash, 'optional') === true,
        },
  );
}

function pathList(value: unknown): string[] | undefined {
  if (value == null) return undefined;
  return (isHash(value) ? entry(value, 'paths') : value) as string[];
}

function rulesList(value: unknown): CiRule[] | null {
  if (!Array.isArray(value)) return null;
  return value.map((rule: Hash) => {
    const variables = entry(rule, 'variables');
    return {
      if: entry(rule, 'if') as string | undefined,
      changes: pathList(entry(rule, 'changes')),
      exists: pathList(entry(rule, 'exists')),
      when: entry(rule, 'when') as string | undefined,
      allowFailure: entry(rule, 'allow_failure') as boolean | undefined,
      startIn: entry(rule, 'start_in') as string | undefined,
      variables: isHash(variables) ? (plain(variables) as Record<string, string>) : undefined,
    };
  });
}

/** A cycle of needs through `start` (names in order, `start` at both ends), or undefined. */
function needsCycle(built: Map<string, CiJob>, start: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (name: string, trail: string[]): string[] | undefined => {
    for (const need of built.get(name)?.needs ?? []) {
      if (need.job === start) return [...trail, start];
      if (seen.has(need.job) || !built.has(need.job)) continue;
      seen.add(need.job);
      const found = walk(need.job, [...trail, need.job]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start, [start]);
}

/** The checks GitLab made once every entry was valid: stages, dependencies, on_stop environments. */
function logicalError(
  jobs: Map<string, Hash>,
  built: Map<string, CiJob>,
  stages: string[],
): string | undefined {
  for (const [name, job] of built) {
    if (!stages.includes(job.stage)) return `${name} job: stage parameter should be ${stages.join(', ')}`;
    for (const need of job.needs ?? []) {
      const other = built.get(need.job);
      // An optional need may name a job the file does not have.
      if (!other) {
        if (need.optional) continue;
        return `${name} job: undefined need: ${need.job}`;
      }
      // GitLab 14.2 and later: a need may be in the same stage (cycles are checked below), not a later one.
      if (other.stageIdx > job.stageIdx) {
        return `${name} job: need ${need.job} is not defined in current or prior stages`;
      }
    }
    for (const dependency of (job.options.dependencies as string[] | undefined) ?? []) {
      const other = built.get(dependency);
      if (!other) return `${name} job: undefined dependency: ${dependency}`;
      // A need's artifacts may come from its own stage (its stage was checked above).
      const needed = job.needs?.some((need) => need.job === dependency) ?? false;
      if (!(other.stageIdx < job.stageIdx) && !needed) {
        return `${name} job: dependency ${dependency} is not defined in prior stages`;
      }
    }
    const cycle = needsCycle(built, name);
    if (cycle) return `${name} job: needs form a cycle: ${cycle.join(' → ')}`;
    const environment = entry(jobs.get(name)!, 'environment');
    const onStop = isHash(environment) ? entry(environment, 'on_stop') : undefined;
    if (isString(onStop)) {
      const stopJob = jobs.get(onStop);
      if (!stopJob) return `${name} job: on_stop job ${onStop} is not defined`;
      const stopEnvironment = entry(stopJob, 'environment');
      if (stopEnvironment == null)
        return `${name} job: on_stop job ${onStop} does not have environment defined`;
      if (entry(environmentValue(stopEnvironment), 'name') !== entry(environment as Hash, 'name')) {
        return `${name} job: on_stop job ${onStop} have different environment name`;
      }
      if (entry(environmentValue(stopEnvironment), 'action') !== 'stop') {
        return `${name} job: on_stop job ${onStop} needs to have action stop defined`;
      }
    }
  }
  return undefined;
}

/**
 * Ruby's YAML reader takes only yes/true/on and no/false/off (any case) as booleans, not YAML 1.1's
 * y/n: `script: y` is the string "y" there.
 */
function rubyBooleans(tags: YAML.Tags): YAML.Tags {
  return tags.map((tag) => {
    if (typeof tag === 'string' || tag.tag !== 'tag:yaml.org,2002:bool' || !('test' in tag) || !tag.test) {
      return tag;
    }
    const isTrue = tag.test.test('true');
    return { ...tag, test: isTrue ? /^(?:yes|true|on)$/i : /^(?:no|false|off)$/i };
  });
}

function loadYaml(text: string): unknown {
  try {
    return yaml().parse(text, {
      version: '1.1',
      customTags: (tags) => [...rubyBooleans(tags), referenceTag()],
      merge: true,
      uniqueKeys: false,
      mapAsMap: true,
      maxAliasCount: 100,
      logLevel: 'error',
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(message.split('\n')[0]!.replace(/:$/, ''));
  }
}

/** Parses and validates a .gitlab-ci.yml; the error is the text GitLab stored as yaml_errors. */
export function parseCiConfig(text: string): CiConfigResult {
  let root: unknown;
  try {
    root = loadYaml(text);
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (!isHash(root)) return { error: 'Invalid configuration format' };
  if (root.has('include')) return { error: 'include config needs the repository to read files from' };
  return configFromRoot(root);
}

/** Reads a file of the same commit for `include: local`; undefined when it does not exist. */
export type LocalFileReader = (path: string) => Promise<string | undefined>;

/**
 * Opens another project of this server for `include: project` at `ref` (its default branch when
 * undefined): readers of its files (nested local includes are that project's), or the error text
 * when the pipeline's user may not read it or it has no such ref.
 */
export type ProjectOpener = (
  project: string,
  ref: string | undefined,
) => Promise<{ read: LocalFileReader; open: ProjectOpener } | { error: string }>;

const MAX_INCLUDES = 150;

/**
 * `include:` as GitLab merges it: the included files first, in order (each with its own includes
 * resolved the same way), then the including file deep-merged over them: `local` files of the same
 * commit, `project` files of this server (with an opener), this server's own `template`s; `remote` is
 * refused (no outside network here).
 */
async function withIncludes(
  root: Hash,
  read: LocalFileReader,
  seen: { count: number },
  depth: number,
  open?: ProjectOpener,
): Promise<Hash> {
  const include = root.get('include');
  root.delete('include');
  if (include === undefined || include === null) return root;
  if (depth > 100) throw new Error('Maximum of 100 nested includes are allowed!');
  const items = Array.isArray(include) ? include : [include];
  let merged: Hash = new Map();
  for (const item of items) {
    let local: unknown;
    if (isString(item)) {
      if (/^https?:\/\//.test(item))
        throw new Error(`include:remote is not supported on this server: \`${item}\``);
      local = item;
    } else if (isHash(item) && item.has('project') && open) {
      merged = mergeDeep(merged, await projectInclude(item, seen, depth, open));
      continue;
    } else if (isHash(item) && item.has('template')) {
      merged = mergeDeep(merged, templateInclude(item, seen));
      continue;
    } else if (isHash(item)) {
      for (const key of ['remote', 'project', 'component']) {
        if (item.has(key))
          throw new Error(`include:${key} is not supported on this server: \`${String(item.get(key))}\``);
      }
      const unknown = unknownKeys(item, ['local', 'rules', 'inputs']);
      if (unknown.length > 0) throw new Error(`include config contains unknown keys: ${unknown.join(', ')}`);
      local = item.get('local');
    }
    if (!isString(local)) throw new Error('include config should be a hash or a string');
    if (/[*?[{]/.test(local)) throw new Error(`include:local wildcard paths are not supported: \`${local}\``);
    if (++seen.count > MAX_INCLUDES) throw new Error(`Maximum of ${MAX_INCLUDES} includes are allowed!`);
    const text = await read(local.replace(/^\/+/, ''));
    if (text === undefined) throw new Error(`Local file \`${local}\` does not exist!`);
    let included: unknown;
    try {
      included = loadYaml(text);
    } catch (error) {
      throw new Error(
        `Included file \`${local}\` does not have valid YAML syntax! ${(error as Error).message}`,
      );
    }
    if (!isHash(included)) throw new Error(`Included file \`${local}\` does not have valid YAML syntax!`);
    merged = mergeDeep(merged, await withIncludes(included, read, seen, depth + 1, open));
  }
  return mergeDeep(merged, root);
}

/** `include: {template}`: one of this server's own templates (they include nothing further). */
function templateInclude(item: Hash, seen: { count: number }): Hash {
  const unknown = unknownKeys(item, ['template', 'rules', 'inputs']);
  if (unknown.length > 0) throw new Error(`include config contains unknown keys: ${unknown.join(', ')}`);
  const name = item.get('template');
  if (!isString(name)) throw new Error('include:template config should be a string');
  if (++seen.count > MAX_INCLUDES) throw new Error(`Maximum of ${MAX_INCLUDES} includes are allowed!`);
  const found = ciTemplate(name);
  if ('error' in found) throw new Error(found.error);
  const included = loadYaml(found.text);
  return isHash(included) ? included : new Map();
}

/** `include: {project, file, ref}`: each file of that project, its own includes read there. */
async function projectInclude(
  item: Hash,
  seen: { count: number },
  depth: number,
  open: ProjectOpener,
): Promise<Hash> {
  const unknown = unknownKeys(item, ['project', 'file', 'ref', 'rules', 'inputs']);
  if (unknown.length > 0) throw new Error(`include config contains unknown keys: ${unknown.join(', ')}`);
  const project = item.get('project');
  const ref = item.get('ref');
  const files = item.get('file');
  const list = isString(files) ? [files] : files;
  if (!isString(project) || !isArrayOfStrings(list) || list.length === 0 || (ref != null && !isString(ref)))
    throw new Error('include:project config should have a project string and a file string or list');
  const opened = await open(project, ref ?? undefined);
  if ('error' in opened) throw new Error(opened.error);
  let merged: Hash = new Map();
  for (const file of list) {
    if (++seen.count > MAX_INCLUDES) throw new Error(`Maximum of ${MAX_INCLUDES} includes are allowed!`);
    const text = await opened.read(file.replace(/^\/+/, ''));
    if (text === undefined) throw new Error(`Project \`${project}\` file \`${file}\` does not exist!`);
    let included: unknown;
    try {
      included = loadYaml(text);
    } catch (error) {
      throw new Error(
        `Included file \`${file}\` does not have valid YAML syntax! ${(error as Error).message}`,
      );
    }
    if (!isHash(included)) throw new Error(`Included file \`${file}\` does not have valid YAML syntax!`);
    merged = mergeDeep(merged, await withIncludes(included, opened.read, seen, depth + 1, opened.open));
  }
  return merged;
}

function mergeDeep(base: Hash, over: Hash): Hash {
  const result: Hash = new Map(base);
  for (const [key, value] of over) {
    const current = result.get(key);
    result.set(key, isHash(current) && isHash(value) ? mergeDeep(current, value) : value);
  }
  return result;
}

/** The file's root with its `include:` merged in, or the error that stops it. */
async function rootWithIncludes(
  text: string,
  read: LocalFileReader,
  open?: ProjectOpener,
): Promise<{ root: Hash; error?: undefined } | { root?: undefined; error: string }> {
  let root: unknown;
  try {
    root = loadYaml(text);
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (!isHash(root)) return { error: 'Invalid configuration format' };
  try {
    return { root: await withIncludes(root, read, { count: 0 }, 0, open) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** parseCiConfig with `include:` read through `read` (files of the same commit). */
export async function parseCiConfigWithIncludes(
  text: string,
  read: LocalFileReader,
  open?: ProjectOpener,
): Promise<CiConfigResult> {
  const loaded = await rootWithIncludes(text, read, open);
  return loaded.root ? configFromRoot(loaded.root) : { error: loaded.error };
}

/**
 * What CI lint answers for a file: the error a pipeline would carry (GitLab reports one at a time), or
 * the configuration as a pipeline sees it (includes, extends, !reference and default applied) as YAML.
 */
export async function lintCiConfig(
  text: string,
  read: LocalFileReader,
  open?: ProjectOpener,
): Promise<{ error: string; mergedYaml?: undefined } | { error?: undefined; mergedYaml: string }> {
  const loaded = await rootWithIncludes(text, read, open);
  if (!loaded.root) return { error: loaded.error };
  // configFromRoot composes the root in place: what is left is the merged configuration.
  const result = configFromRoot(loaded.root);
  if (result.error !== undefined) return { error: result.error };
  return { mergedYaml: yaml().stringify(loaded.root) };
}

function configFromRoot(root: Hash): CiConfigResult {
  const composed = composeConfig(root);
  if (composed !== undefined) return { error: composed };
  const [first] = configErrors(root);
  if (first !== undefined) return { error: first };

  const stagesKey = entry(root, 'stages') == null && entry(root, 'types') != null ? 'types' : 'stages';
  const declared = (entry(root, stagesKey) as string[] | undefined) ?? DEFAULT_STAGES;
  // `.pre` and `.post` are always first and last; they count only when a job uses them, so 8.13's
  // stage indexes stay as they were.
  const used = new Set([...root.values()].map((job) => (isHash(job) ? entry(job, 'stage') : undefined)));
  const stages = [
    ...(used.has('.pre') ? ['.pre'] : []),
    ...declared.filter((stage) => stage !== '.pre' && stage !== '.post'),
    ...(used.has('.post') ? ['.post'] : []),
  ];
  const global: GlobalEntries = {
    before_script: entry(root, 'before_script'),
    image: entry(root, 'image'),
    services: entry(root, 'services'),
    after_script: entry(root, 'after_script'),
    variables: entry(root, 'variables'),
    cache: entry(root, 'cache'),
  };
  const jobs = new Map<string, Hash>();
  for (const [key, config] of root) {
    const name = keyName(key);
    if (GLOBAL_KEYS.includes(name) || isHidden(name)) continue;
    jobs.set(name, config as Hash);
  }
  const built = new Map([...jobs].map(([name, config]) => [name, buildJob(name, config, global, stages)]));
  for (const [name, job] of built) {
    // Artifacts from needs: an optional need of a job the file lacks brings none.
    if (job.needs && entry(jobs.get(name)!, 'dependencies') == null) {
      job.options.dependencies = (job.options.dependencies as string[]).filter((dep) => built.has(dep));
    }
  }
  const error = logicalError(jobs, built, stages);
  if (error) return { error };
  const workflow = entry(root, 'workflow');
  return {
    config: {
      stages,
      jobs: expandParallel(built, jobs),
      workflow: {
        rules: isHash(workflow) ? rulesList(entry(workflow, 'rules')) : null,
        name: isHash(workflow) ? ((entry(workflow, 'name') as string | undefined) ?? null) : null,
      },
      variables: isHash(global.variables) ? (plain(global.variables) as Record<string, string>) : {},
    },
  };
}
