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
import { isValidRefPattern } from './ref-policy.ts';
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
}

export interface CiConfig {
  stages: string[];
  jobs: CiJob[];
}

export type CiConfigResult = { config: CiConfig; error?: undefined } | { config?: undefined; error: string };

const DEFAULT_STAGES = ['build', 'test', 'deploy'];
const GLOBAL_KEYS = [
  'before_script',
  'image',
  'services',
  'after_script',
  'variables',
  'stages',
  'types',
  'cache',
];
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
];
type InheritedKey = 'before_script' | 'image' | 'services' | 'after_script' | 'variables' | 'cache';
const WHEN_VALUES = ['on_success', 'on_failure', 'always', 'manual'];
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
  leafErrors(location, value, isArrayOfStrings(value), 'should be an array of strings');

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

function artifactsErrors(location: string, value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const errors = new EntryErrors(location);
  if (!isHash(value)) errors.add('config', 'should be a hash');
  const unknown = unknownKeys(value, ['name', 'untracked', 'paths', 'when', 'expire_in']);
  if (unknown.length > 0) errors.add('config', `contains unknown keys: ${unknown.join(', ')}`);
  if (isHash(value)) {
    const name = entry(value, 'name');
    if (name != null && !isString(name)) errors.add('name', 'should be a string');
    const untracked = entry(value, 'untracked');
    if (untracked != null && !isBoolean(untracked)) errors.add('untracked', 'should be a boolean value');
    const paths = entry(value, 'paths');
    if (paths != null && !isArrayOfStrings(paths)) errors.add('paths', 'should be an array of strings');
    const when = entry(value, 'when');
    if (when != null && !['on_success', 'on_failure', 'always'].includes(when as string)) {
      errors.add('when', 'should be on_success, on_failure or always');
    }
    const expireIn = entry(value, 'expire_in');
    if (expireIn != null && !(isString(expireIn) && parseDuration(expireIn) !== undefined)) {
      errors.add('expire_in', 'should be a duration');
    }
  }
  return errors.messages();
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
    if (action != null && action !== 'start' && action !== 'stop')
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
    if (allowFailure != null && !isBoolean(allowFailure))
      errors.add('allow_failure', 'should be a boolean value');
    const when = entry(config, 'when');
    if (when != null && !WHEN_VALUES.includes(when as string)) {
      errors.add('when', 'should be on_success, on_failure, always or manual');
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
      isString(script) || isArrayOfStrings(script),
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
  ];
}

/** Where a job's name appears in messages; an empty name reads "job", as Rails' humanized class did. */
const jobLocation = (name: unknown) => `jobs:${isBlank(name) ? 'job' : keyName(name)}`;
const isHidden = (name: unknown) => keyName(name).startsWith('.');

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

function stringList(value: unknown): string[] | undefined {
  if (value == null) return undefined;
  return isString(value) ? [value] : (value as string[]);
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
  const own = (key: InheritedKey) => entry(config, key) ?? global[key];
  const stage = (entry(config, 'stage') ?? entry(config, 'type') ?? 'test') as string;
  const commands = [
    ...(stringList(own('before_script')) ?? []),
    ...(stringList(entry(config, 'script')) ?? []),
  ];
  const variables = new Map<string, string>();
  for (const source of [global.variables, entry(config, 'variables')]) {
    if (isHash(source)) for (const [key, value] of source) variables.set(keyName(key), value as string);
  }
  const environment = entry(config, 'environment');
  const options: Record<string, unknown> = {};
  const option = (key: string, value: unknown) => {
    if (value !== null && value !== undefined) options[key] = plain(value);
  };
  option('image', own('image'));
  option('services', own('services'));
  option('artifacts', entry(config, 'artifacts'));
  option('cache', cacheOption(own('cache')));
  option('dependencies', entry(config, 'dependencies'));
  option('after_script', own('after_script'));
  option('environment', environment == null ? undefined : environmentValue(environment));
  return {
    name,
    stage,
    stageIdx: stages.indexOf(stage),
    commands: commands.join('\n'),
    tagList: (entry(config, 'tags') as string[] | undefined) ?? [],
    allowFailure: (entry(config, 'allow_failure') as boolean | undefined) ?? false,
    when: (entry(config, 'when') as CiWhen | undefined) ?? 'on_success',
    environment:
      environment == null ? null : ((entry(environmentValue(environment), 'name') as string) ?? null),
    yamlVariables: [...variables].map(([key, value]) => ({ key, value, public: true as const })),
    options,
    only: (entry(config, 'only') as string[] | undefined) ?? null,
    except: (entry(config, 'except') as string[] | undefined) ?? null,
  };
}

/** The checks GitLab made once every entry was valid: stages, dependencies, on_stop environments. */
function logicalError(
  jobs: Map<string, Hash>,
  built: Map<string, CiJob>,
  stages: string[],
): string | undefined {
  for (const [name, job] of built) {
    if (!stages.includes(job.stage)) return `${name} job: stage parameter should be ${stages.join(', ')}`;
    for (const dependency of (job.options.dependencies as string[] | undefined) ?? []) {
      const other = built.get(dependency);
      if (!other) return `${name} job: undefined dependency: ${dependency}`;
      if (!(other.stageIdx < job.stageIdx)) {
        return `${name} job: dependency ${dependency} is not defined in prior stages`;
      }
    }
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
      customTags: rubyBooleans,
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
  const [first] = configErrors(root);
  if (first !== undefined) return { error: first };

  const stagesKey = entry(root, 'stages') == null && entry(root, 'types') != null ? 'types' : 'stages';
  const stages = (entry(root, stagesKey) as string[] | undefined) ?? DEFAULT_STAGES;
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
  const error = logicalError(jobs, built, stages);
  if (error) return { error };
  return { config: { stages, jobs: [...built.values()] } };
}
