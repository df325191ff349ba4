// Mail about finished pipelines and the `custom` notification level, through a real SMTP server: a
// failed pipeline tells the pusher (8.13's subject, headers, the failed build with its trace's last lines
// free of colour codes); a successful one only when their custom level asks for it; `disabled` silences
// both. The custom level's switches go through v4's notification settings API and also choose issue
// mails the user would not get as a participant.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCiProject, type CiProject } from '../helpers/ci.ts';
import { addProjectMember, createUser } from '../helpers/factory.ts';
import { Runner17 } from '../helpers/runner-v4-client.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts';

const REGISTRATION_TOKEN = 'pipeline-mails-registration';

describe('pipeline mails and the custom level', () => {
  let ci: CiProject;
  let smtp: SmtpSink;
  let runner: Runner17;
  const settle = () => ci.t.server.mailWorker.drain({ retries: true });

  async function setProjectSetting(token: string, body: Record<string, unknown>) {
    const response = await ci.t.request('PUT', `/api/v4/projects/${ci.project.id}/notification_settings`, {
      token,
      body,
    });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  /** Pushes a one-job pipeline and has the runner finish its job in `state`; answers the pipeline. */
  async function runPipeline(state: 'success' | 'failed', trace: string) {
    const pipeline = await ci.push({ '.gitlab-ci.yml': 'test:\n  script: [make test]\n' }, `run ${state}`);
    assert.ok(pipeline);
    const job = await runner.requestJob();
    assert.ok(job);
    assert.equal((await runner.patchTrace(job, 0, trace)).status, 202);
    const extra = state === 'failed' ? { failure_reason: 'script_failure', exit_code: 1 } : { exit_code: 0 };
    assert.equal((await runner.update(job, state, extra)).status, 200);
    const shown = await ci.t.request('GET', `/api/v4/projects/${ci.project.id}/pipelines/${pipeline.id}`, {
      token: ci.owner.token,
    });
    assert.equal(shown.body.status, state);
    return pipeline;
  }

  before(async () => {
    smtp = await startSmtpSink();
    ci = await startCiProject(
      {
        LABRADOR_SMTP_URL: smtp.url,
        LABRADOR_MAIL_POLL_MS: '20',
        LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN,
        LABRADOR_EXTERNAL_URL: 'http://labrador.test',
      },
      'mailed',
    );
    runner = new Runner17(ci.base);
    assert.equal((await runner.register(REGISTRATION_TOKEN)).status, 201);
  });
  after(async () => {
    await ci?.close();
    await smtp?.close();
  });

  it('mails the pusher a failed pipeline with its failed build and the end of its trace', async () => {
    smtp.mails.length = 0;
    const lines = Array.from({ length: 14 }, (_, i) => `line ${i + 1}`).join('\n');
    const pipeline = await runPipeline('failed', `${lines}\n\u001b[31;1mERROR: boom\u001b[0m\n`);
    await settle();
    assert.deepEqual(
      smtp.mails.map((mail) => mail.to),
      [[ci.owner.email]],
    );
    const mail = smtp.mails[0]!;
    const sha = pipeline.sha.slice(0, 8);
    assert.equal(mail.parsed.subject, `mailed | Pipeline #${pipeline.id} has failed for master | ${sha}`);
    assert.equal(mail.header('x-gitlab-pipeline-id'), String(pipeline.id));
    assert.equal(mail.header('x-gitlab-pipeline-ref'), 'master');
    assert.equal(mail.header('x-gitlab-pipeline-status'), 'failed');
    assert.equal(mail.header('x-gitlab-project-path'), ci.project.fullPath);
    const text = mail.parsed.text ?? '';
    assert.match(text, /^Your pipeline has failed\./);
    assert.match(
      text,
      new RegExp(
        `Pipeline #${pipeline.id} \\( http://labrador\\.test/${ci.project.fullPath}/pipelines/${pipeline.id} \\) had 1 failed build\\.`,
      ),
    );
    assert.match(text, /Stage: test\nName: test\n/);
    // The last ten lines of the trace (line 6 … line 14 and the error), without the colour codes.
    assert.match(text, /Trace: line 6\nline 7\n[\s\S]*line 14\nERROR: boom/);
    assert.doesNotMatch(text, /line 5\n/);
    assert.ok(!text.includes('\u001b'), 'no colour codes');
    assert.match(mail.parsed.html || '', /Your pipeline has failed\./);
  });

  it('stays silent on success unless the custom level asks, then says it succeeded', async () => {
    smtp.mails.length = 0;
    await runPipeline('success', 'ok\n');
    await settle();
    assert.equal(smtp.mails.length, 0);

    const chosen = await setProjectSetting(ci.owner.token, { level: 'custom', success_pipeline: true });
    assert.equal(chosen.level, 'custom');
    assert.equal(chosen.events.success_pipeline, true);
    assert.equal(chosen.events.failed_pipeline, false);
    const pipeline = await runPipeline('success', 'ok\n');
    await settle();
    assert.deepEqual(
      smtp.mails.map((mail) => mail.parsed.subject),
      [`mailed | Pipeline #${pipeline.id} has succeeded for master | ${pipeline.sha.slice(0, 8)}`],
    );
    // custom with failed_pipeline off: a failure is not mailed.
    smtp.mails.length = 0;
    await runPipeline('failed', 'no\n');
    await settle();
    assert.equal(smtp.mails.length, 0);
  });

  it('mails nothing at the disabled level', async () => {
    await setProjectSetting(ci.owner.token, { level: 'disabled' });
    smtp.mails.length = 0;
    await runPipeline('failed', 'no\n');
    await settle();
    assert.equal(smtp.mails.length, 0);
    await setProjectSetting(ci.owner.token, { level: 'global' });
  });

  it('keeps custom switches across levels, shows them only while custom, refuses a non-boolean', async () => {
    const user = await createUser(ci.t, 'switcher');
    const path = '/api/v4/notification_settings';
    let response = await ci.t.request('PUT', path, {
      token: user.token,
      body: { level: 'custom', new_note: true, close_issue: 'true' },
    });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.level, 'custom');
    assert.equal(response.body.notification_email, user.email);
    assert.equal(response.body.events.new_note, true);
    assert.equal(response.body.events.close_issue, true);
    assert.equal(response.body.events.new_issue, false);
    response = await ci.t.request('PUT', path, { token: user.token, body: { level: 'watch' } });
    assert.deepEqual(response.body, { level: 'watch', notification_email: user.email });
    response = await ci.t.request('PUT', path, { token: user.token, body: { level: 'custom' } });
    assert.equal(response.body.events.new_note, true);
    assert.equal(response.body.events.close_issue, true);
    response = await ci.t.request('PUT', path, { token: user.token, body: { new_note: 'sometimes' } });
    assert.equal(response.status, 400);
    assert.equal((await ci.t.request('GET', path, { token: user.token })).body.events.new_note, true);
  });

  it('tells a custom user of the events they switched on, as a watcher would be told', async () => {
    const reader = await createUser(ci.t, 'customreader');
    await addProjectMember(ci.t, ci.project.id, reader.id, 20);
    await setProjectSetting(reader.token, { level: 'custom', new_issue: true });
    smtp.mails.length = 0;
    const created = await ci.t.request('POST', `/api/v4/projects/${ci.project.id}/issues`, {
      token: ci.owner.token,
      body: { title: 'Told to the custom reader' },
    });
    assert.equal(created.status, 201, created.text);
    await settle();
    assert.deepEqual(
      smtp.to(reader.email).map((mail) => mail.parsed.subject),
      [`mailed | Told to the custom reader (#${created.body.iid})`],
    );
    // Closing it is not switched on: the reader, no participant, hears nothing of it.
    smtp.mails.length = 0;
    const closed = await ci.t.request('PUT', `/api/v4/projects/${ci.project.id}/issues/${created.body.iid}`, {
      token: ci.owner.token,
      body: { state_event: 'close' },
    });
    assert.equal(closed.status, 200, closed.text);
    await settle();
    assert.equal(smtp.to(reader.email).length, 0);
  });
});
