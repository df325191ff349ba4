// .gitlab-ci.yml reading: what GitLab 8.13 accepted (anchors, merge keys, inheritance, the options a
// runner gets) and the first error text it stored for what it refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCiConfig } from '../../src/ci/config.ts';
import { parseDuration } from '../../src/ci/durations.ts';
import { runsForRef } from '../../src/ci/ref-policy.ts';

function jobs(text: string) {
  const result = parseCiConfig(text);
  assert.equal(result.error, undefined, result.error);
  return result.config!.jobs;
}

const error = (text: string) => parseCiConfig(text).error;

describe('.gitlab-ci.yml', () => {
  it('inherits global entries, merges templates and keeps GitLab’s option order', () => {
    const [build, deploy] = jobs(`
image: ruby:2.3
services: [postgres]
before_script: [bundle install]
after_script: [echo done]
cache: {paths: [vendor/], key: "$CI_BUILD_REF_NAME", untracked: true}
variables: {A: "1", B: "2"}
.defaults: &defaults
  tags: [docker, linux]
  allow_failure: yes
build:
  <<: *defaults
  script: rake
  variables: {B: "3"}
  artifacts: {name: out, when: always, paths: [pkg/], untracked: false, expire_in: 2 days}
deploy:
  type: deploy
  script: [cap deploy]
  image: alpine
  before_script: []
  when: manual
  environment: production
  only: [master, /^release-.*$/]
  except: [tags]
`);
    assert.equal(build!.commands, 'bundle install\nrake');
    assert.deepEqual(build!.tagList, ['docker', 'linux']);
    assert.equal(build!.allowFailure, true);
    assert.equal(build!.stage, 'test');
    assert.deepEqual(build!.yamlVariables, [
      { key: 'A', value: '1', public: true },
      { key: 'B', value: '3', public: true },
    ]);
    assert.deepEqual(Object.keys(build!.options), [
      'image',
      'services',
      'artifacts',
      'cache',
      'after_script',
    ]);
    assert.deepEqual(build!.options.cache, {
      key: '$CI_BUILD_REF_NAME',
      untracked: true,
      paths: ['vendor/'],
    });
    assert.equal(deploy!.commands, 'cap deploy');
    assert.equal(deploy!.stage, 'deploy');
    assert.equal(deploy!.stageIdx, 2);
    assert.equal(deploy!.when, 'manual');
    assert.equal(deploy!.environment, 'production');
    assert.deepEqual(deploy!.options.environment, { name: 'production', action: 'start' });
    assert.equal(deploy!.options.image, 'alpine');
  });

  it('leaves hidden jobs out and reads y/n as strings, as Ruby did', () => {
    const list = jobs('.hidden: {script: x}\nj: {script: y, stage: test}\n');
    assert.deepEqual(
      list.map((job) => [job.name, job.commands]),
      [['j', 'y']],
    );
  });

  it('answers GitLab’s messages for what it refuses', () => {
    const cases: Array<[string, string]> = [
      [
        'a: [',
        'Flow sequence in block collection must be sufficiently indented and end with a ] at line 1, column 5',
      ],
      ['- job', 'Invalid configuration format'],
      ['', 'Invalid configuration format'],
      ['.only_hidden: {script: x}', 'jobs config should contain at least one visible job'],
      ['image: [a]\nj: {script: x}', 'image config should be a string'],
      ['stages: build\nj: {script: x}', 'stages config should be an array of strings'],
      ['variables: {A: 1}\nj: {script: x}', 'variables config should be a hash of key value pairs'],
      ['cache: {keys: x}\nj: {script: x}', 'cache config contains unknown keys: keys'],
      ['j: {script: x, cache: {key: [a]}}', 'jobs:j:cache:key config should be a string or symbol'],
      ['j: {script: x, foo: 1, bar: 2}', 'jobs:j config contains unknown keys: foo, bar'],
      ['j: hello', 'jobs:j config should be a hash'],
      ['j:', "jobs:j config can't be blank"],
      ['j: {script: 1}', 'jobs:j:script config should be a string or an array of strings'],
      ['j: {script: x, before_script: "a"}', 'jobs:j:before_script config should be an array of strings'],
      ['j: {script: x, stage: [a]}', 'jobs:j:stage config should be a string'],
      ['j: {script: x, stage: lint}', 'j job: stage parameter should be build, test, deploy'],
      ['j: {script: x, when: later}', 'jobs:j when should be on_success, on_failure, always or manual'],
      ['j: {script: x, allow_failure: maybe}', 'jobs:j allow failure should be a boolean value'],
      ['j: {script: x, tags: docker}', 'jobs:j tags should be an array of strings'],
      ['j: {script: x, only: master}', 'jobs:j:only config should be an array of strings or regexps'],
      ['j: {script: x, except: ["/(/"]}', 'jobs:j:except config should be an array of strings or regexps'],
      ['j: {script: x, artifacts: {paths: a}}', 'jobs:j:artifacts paths should be an array of strings'],
      ['j: {script: x, artifacts: {expire_in: soon}}', 'jobs:j:artifacts expire in should be a duration'],
      [
        'j: {script: x, artifacts: {when: never}}',
        'jobs:j:artifacts when should be on_success, on_failure or always',
      ],
      ['j: {script: x, environment: {url: "http://x"}}', "jobs:j:environment name can't be blank"],
      [
        'j: {script: x, environment: "a*b"}',
        "jobs:j:environment name can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.' and spaces",
      ],
      [
        'j: {script: x, environment: {name: p, action: go}}',
        'jobs:j:environment action should be start or stop',
      ],
      ['j: {script: x, dependencies: [k]}', 'j job: undefined dependency: k'],
      [
        'j: {script: x, dependencies: [k]}\nk: {script: y}',
        'j job: dependency k is not defined in prior stages',
      ],
      [
        'j: {script: x, environment: {name: p, on_stop: s}}\ns: {script: y, environment: {name: q, action: stop}}',
        'j job: on_stop job s have different environment name',
      ],
    ];
    for (const [text, message] of cases) assert.equal(error(text), message, text);
  });

  it('reads durations as ChronicDuration did', () => {
    assert.equal(parseDuration('1 week'), 604_800);
    assert.equal(parseDuration('3 mins 4 sec'), 184);
    assert.equal(parseDuration('2h20min'), 8400);
    assert.equal(parseDuration('6 mos 1 day'), 6 * 2_592_000 + 86_400);
    assert.equal(parseDuration('1:30:00'), 5400);
    assert.equal(parseDuration('42'), 42);
    assert.equal(parseDuration('0'), undefined);
    assert.equal(parseDuration('soon'), undefined);
  });

  it('matches refs with only/except: names, keywords, regexps, project paths', () => {
    const branch = { ref: 'feature-1', tag: false, triggered: false, projectPath: 'g/p' };
    const tag = { ...branch, ref: 'v1.0', tag: true };
    assert.equal(runsForRef(['branches'], null, branch), true);
    assert.equal(runsForRef(['branches'], null, tag), false);
    assert.equal(runsForRef(['tags'], null, tag), true);
    assert.equal(runsForRef(['/^feature-/'], null, branch), true);
    assert.equal(runsForRef(['/\\Afeat/'], null, branch), true);
    assert.equal(runsForRef(['master'], null, branch), false);
    assert.equal(runsForRef(null, ['/^feature/'], branch), false);
    assert.equal(runsForRef(['branches@g/p'], null, branch), true);
    assert.equal(runsForRef(['branches@other/p'], null, branch), false);
    assert.equal(runsForRef(['triggers'], null, { ...branch, triggered: true }), true);
    // A catastrophic pattern runs out of time and counts as no match instead of stalling the process
    // (unguarded, 2^40 steps: the run's hang bound would end it first).
    assert.equal(runsForRef(['/^(a+)+$/'], null, { ...branch, ref: `${'a'.repeat(40)}!` }), false);
  });
});
