// Who gets mail about issues, merge requests and notes (GitLab 8.13's NotificationService), through a
// real SMTP server on loopback: watchers and assignee on a new issue, the old and new assignee on a
// reassignment, participants on notes and on close/reopen, mentioned users; never the actor, blocked
// users, users with notifications disabled, or users who may not read a confidential issue. Also the
// mail's shape: subject, text and HTML parts, threading headers, List-Id, the unsubscribe link.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts';

describe('notification mails', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  let owner: TestUser;
  let watcher: TestUser;
  let assignee: TestUser;
  let bystander: TestUser;
  let mentioned: TestUser;
  let blocked: TestUser;
  let guestWatcher: TestUser;
  let project: TestProject;

  const addresses = () => smtp.mails.flatMap((mail) => mail.to).sort();
  const settle = () => t.server.mailWorker.drain({ retries: true });

  async function setLevel(user: TestUser, path: string, level: string) {
    const response = await t.request('PUT', `/api/v4${path}`, { token: user.token, body: { level } });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.level, level);
  }

  async function newIssue(author: TestUser, body: Record<string, unknown>) {
    const response = await t.request('POST', `/api/v3/projects/${project.id}/issues`, {
      token: author.token,
      body,
    });
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  before(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({
      LABRADOR_SMTP_URL: smtp.url,
      LABRADOR_MAIL_POLL_MS: '20',
      LABRADOR_MAIL_RETRY_BASE_MS: '20',
    });
    owner = await createUser(t, 'mailowner');
    watcher = await createUser(t, 'mailwatcher');
    assignee = await createUser(t, 'mailassignee');
    bystander = await createUser(t, 'mailbystander');
    mentioned = await createUser(t, 'mailmentioned');
    blocked = await createUser(t, 'mailblocked');
    guestWatcher = await createUser(t, 'mailguest');
    project = await createProject(t, { owner, path: 'mailed', visibility: 0 });
    for (const user of [watcher, assignee, bystander, mentioned, blocked])
      await addProjectMember(t, project.id, user.id, 30);
    await addProjectMember(t, project.id, guestWatcher.id, 10);
    await setLevel(watcher, `/projects/${project.id}/notification_settings`, 'watch');
    await setLevel(guestWatcher, `/projects/${project.id}/notification_settings`, 'watch');
    await setLevel(blocked, '/notification_settings', 'watch');
    assert.equal(
      (await t.request('PUT', `/api/v3/users/${blocked.id}/block`, { token: t.rootToken })).status,
      200,
    );
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => {
    smtp.mails.length = 0;
  });

  it('sends a new issue to watchers, the assignee and mentioned users, not to the author or bystanders', async () => {
    const issue = await newIssue(owner, {
      title: 'Printer on fire',
      description: 'Smoke everywhere, @mailmentioned please look',
      assignee_id: assignee.id,
    });
    await settle();
    assert.deepEqual(
      addresses(),
      [assignee.email, guestWatcher.email, mentioned.email, watcher.email].sort(),
    );
    const [mail] = smtp.to(watcher.email);
    assert.equal(mail!.parsed.subject, `mailed | Printer on fire (#${issue.iid})`);
    assert.equal(mail!.header('message-id'), `<issue_${issue.id}@labrador.test>`);
    assert.equal(mail!.header('in-reply-to'), undefined);
    assert.match(mail!.header('list-id') ?? '', /mailowner\/mailed <mailowner\.mailed\.labrador\.test>/);
    assert.match(
      mail!.parsed.text ?? '',
      new RegExp(`http://labrador.test/${project.fullPath}/issues/${issue.iid}`),
    );
    assert.match(mail!.parsed.text ?? '', /Smoke everywhere/);
    assert.match(
      String(mail!.parsed.html),
      /<a href="http:\/\/labrador\.test\/mailowner\/mailed\/issues\/\d+">/,
    );
    assert.equal(mail!.parsed.from?.value[0]?.address, 'gitlab@labrador.test');
    // No secret of the recipient's (their private token) travels in a notification.
    assert.doesNotMatch(mail!.parsed.text ?? '', new RegExp(watcher.token));
  });

  it('keeps a confidential issue from watchers who may not read it', async () => {
    await newIssue(owner, { title: 'Secret plans', confidential: true });
    await settle();
    assert.deepEqual(addresses(), [watcher.email]);
  });

  it('threads notes under the issue and sends them to participants but not their writer', async () => {
    const issue = await newIssue(owner, { title: 'Threaded', assignee_id: assignee.id });
    await settle();
    smtp.mails.length = 0;
    const note = await t.request('POST', `/api/v3/projects/${project.id}/issues/${issue.id}/notes`, {
      token: assignee.token,
      body: { body: 'On it, cc @mailbystander' },
    });
    assert.equal(note.status, 201, note.text);
    await settle();
    // The author (participant), the watchers, and the mentioned bystander; the assignee wrote it.
    assert.deepEqual(addresses(), [bystander.email, guestWatcher.email, owner.email, watcher.email].sort());
    const mail = smtp.to(owner.email)[0]!;
    assert.equal(mail.header('in-reply-to'), `<issue_${issue.id}@labrador.test>`);
    assert.equal(mail.header('references'), `<issue_${issue.id}@labrador.test>`);
    assert.notEqual(mail.header('message-id'), `<issue_${issue.id}@labrador.test>`);
    assert.match(mail.parsed.text ?? '', /On it, cc @mailbystander/);
    assert.match(mail.parsed.text ?? '', new RegExp(`#note_${note.body.id}`));
  });

  it('tells the old and the new assignee about a reassignment, and participants about close and reopen', async () => {
    await setLevel(watcher, `/projects/${project.id}/notification_settings`, 'participating');
    await setLevel(guestWatcher, `/projects/${project.id}/notification_settings`, 'global');
    const issue = await newIssue(owner, { title: 'Moving around', assignee_id: assignee.id });
    await settle();
    smtp.mails.length = 0;
    const url = `/api/v3/projects/${project.id}/issues/${issue.id}`;
    assert.equal(
      (await t.request('PUT', url, { token: owner.token, body: { assignee_id: bystander.id } })).status,
      200,
    );
    await settle();
    assert.deepEqual(addresses(), [assignee.email, bystander.email].sort());
    assert.match(
      smtp.mails[0]!.parsed.text ?? '',
      /Assignee changed from mailassignee Name to mailbystander Name/,
    );

    smtp.mails.length = 0;
    assert.equal(
      (await t.request('PUT', url, { token: bystander.token, body: { state_event: 'close' } })).status,
      200,
    );
    await settle();
    // Participants now: the author and the current assignee (the closer); the closer hears nothing.
    assert.deepEqual(addresses(), [owner.email]);
    assert.match(smtp.mails[0]!.parsed.text ?? '', /was closed by mailbystander Name/);

    smtp.mails.length = 0;
    assert.equal(
      (await t.request('PUT', url, { token: owner.token, body: { state_event: 'reopen' } })).status,
      200,
    );
    await settle();
    assert.deepEqual(addresses(), [bystander.email]);
  });

  it('sends nothing to a user whose level is disabled, and mention-level users only when mentioned', async () => {
    await setLevel(assignee, '/notification_settings', 'disabled');
    await setLevel(bystander, `/projects/${project.id}/notification_settings`, 'mention');
    try {
      await newIssue(owner, { title: 'Quiet please', assignee_id: assignee.id });
      const other = await newIssue(owner, { title: 'Ping', assignee_id: bystander.id });
      await settle();
      assert.deepEqual(addresses(), []);
      await t.request('POST', `/api/v3/projects/${project.id}/issues/${other.id}/notes`, {
        token: owner.token,
        body: { body: '@mailbystander ping' },
      });
      await settle();
      assert.deepEqual(addresses(), [bystander.email]);
    } finally {
      await setLevel(assignee, '/notification_settings', 'participating');
      await setLevel(bystander, `/projects/${project.id}/notification_settings`, 'global');
    }
  });

  it('unsubscribes from a thread through the mail link without signing in', async () => {
    const issue = await newIssue(owner, { title: 'Too chatty', assignee_id: assignee.id });
    await settle();
    const mail = smtp.to(assignee.email)[0]!;
    const link = /Unsubscribe: (\S+)/.exec(mail.parsed.text ?? '')![1]!;
    assert.equal(mail.header('list-unsubscribe'), `<${link}>`);
    const page = await t.request('GET', link.replace('http://labrador.test', ''));
    assert.equal(page.status, 200);
    assert.match(page.text, /no longer get mail/);
    assert.equal(
      (await t.request('GET', '/sent_notifications/0123456789abcdef0123456789abcdef/unsubscribe')).status,
      404,
    );
    smtp.mails.length = 0;
    await t.request('POST', `/api/v3/projects/${project.id}/issues/${issue.id}/notes`, {
      token: owner.token,
      body: { body: 'Still there?' },
    });
    await settle();
    assert.deepEqual(addresses(), []);
  });

  it('answers the notification settings API in v4 shapes and refuses unknown levels', async () => {
    const global = await t.request('GET', '/api/v4/notification_settings', { token: watcher.token });
    assert.deepEqual(global.body, { level: 'participating', notification_email: watcher.email });
    const bad = await t.request('PUT', '/api/v4/notification_settings', {
      token: watcher.token,
      body: { level: 'loud' },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { error: 'level does not have a valid value' });
    const hidden = await createProject(t, { owner, path: 'mail-hidden' });
    const other = await t.request('GET', `/api/v4/projects/${hidden.id}/notification_settings`, {
      token: watcher.token,
    });
    assert.equal(other.status, 404);
    assert.equal((await t.request('GET', '/api/v4/notification_settings')).status, 401);
  });
});
