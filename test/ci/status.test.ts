// Build and pipeline statuses as GitLab 8.13 computed them: the composite status of the newest builds,
// the builds it ignores, stage gating by `when`, and the pipeline's own transitions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compositeStatus,
  gatePipeline,
  pipelineStatusFrom,
  pipelineTransition,
  runningSeconds,
  type StageGroup,
  type StatusGroup,
} from '../../src/ci/status.ts';
import type { CiStatus, CiWhen } from '../../src/domain/types.ts';

const g = (status: CiStatus, extra: Partial<StatusGroup> = {}): StatusGroup => ({
  status,
  allowFailure: false,
  when: 'on_success',
  count: 1,
  ...extra,
});

const s = (
  stageIdx: number,
  status: CiStatus,
  when: CiWhen = 'on_success',
  allowFailure = false,
): StageGroup => ({
  stageIdx,
  status,
  when,
  allowFailure,
  count: 1,
});

describe('CI statuses', () => {
  it('combines builds as HasStatus did', () => {
    assert.equal(compositeStatus([]), undefined);
    assert.equal(compositeStatus([g('success'), g('success')]), 'success');
    assert.equal(compositeStatus([g('created')]), 'created');
    assert.equal(compositeStatus([g('success'), g('skipped')]), 'skipped');
    assert.equal(compositeStatus([g('success'), g('canceled')]), 'canceled');
    assert.equal(compositeStatus([g('pending'), g('created')]), 'pending');
    assert.equal(compositeStatus([g('success'), g('pending')]), 'running');
    assert.equal(compositeStatus([g('failed'), g('running')]), 'running');
    assert.equal(compositeStatus([g('failed'), g('success')]), 'failed');
    // ignored: allowed failures, waiting manual jobs, skipped on_failure jobs
    assert.equal(compositeStatus([g('success'), g('failed', { allowFailure: true })]), 'success');
    assert.equal(compositeStatus([g('success'), g('skipped', { when: 'manual' })]), 'success');
    assert.equal(compositeStatus([g('success'), g('skipped', { when: 'on_failure' })]), 'success');
    assert.equal(compositeStatus([g('skipped', { when: 'manual' })]), 'success');
    assert.equal(pipelineStatusFrom([], false), 'skipped');
    assert.equal(pipelineStatusFrom([g('success')], true), 'failed');
  });

  it('opens a stage once the earlier ones finished, as each job’s `when` says', () => {
    const groups = [s(0, 'created'), s(1, 'created'), s(1, 'created', 'manual')];
    assert.deepEqual(gatePipeline(groups), [{ stageIdx: 0, when: 'on_success', status: 'pending' }]);
    groups[0]!.status = 'failed';
    assert.deepEqual(gatePipeline(groups), [
      { stageIdx: 1, when: 'on_success', status: 'skipped' },
      { stageIdx: 1, when: 'manual', status: 'skipped' },
    ]);
    const recovered = [
      s(0, 'failed'),
      s(1, 'created', 'on_failure'),
      s(1, 'created', 'always'),
      s(2, 'created'),
    ];
    assert.deepEqual(gatePipeline(recovered), [
      { stageIdx: 1, when: 'on_failure', status: 'pending' },
      { stageIdx: 1, when: 'always', status: 'pending' },
    ]);
    const allowed = [s(0, 'failed', 'on_success', true), s(1, 'created')];
    assert.deepEqual(gatePipeline(allowed), [{ stageIdx: 1, when: 'on_success', status: 'pending' }]);
    const canceled = [s(0, 'canceled'), s(1, 'created', 'always')];
    assert.deepEqual(gatePipeline(canceled), [{ stageIdx: 1, when: 'always', status: 'skipped' }]);
  });

  it('moves a pipeline as its state machine allowed', () => {
    assert.equal(pipelineTransition('created', 'pending'), 'pending');
    assert.equal(pipelineTransition('success', 'pending'), 'running');
    assert.equal(pipelineTransition('running', 'pending'), undefined);
    assert.equal(pipelineTransition('pending', 'running'), 'running');
    assert.equal(pipelineTransition('running', 'running'), undefined);
    assert.equal(pipelineTransition('created', 'created'), undefined);
    assert.equal(pipelineTransition('running', 'failed'), 'failed');
  });

  it('counts overlapping runs once for the duration', () => {
    const at = (seconds: number) => new Date(Date.UTC(2016, 0, 1, 0, 0, seconds)).toISOString();
    const periods = [
      { startedAt: at(1), finishedAt: at(3) },
      { startedAt: at(2), finishedAt: at(4) },
      { startedAt: at(6), finishedAt: null },
    ];
    assert.equal(runningSeconds(periods, at(7)), 4);
  });
});
