// The mail worker against a real SMTP server on loopback: a server that answers 451 for a while (the mail
// arrives once, after retries), a server that is down across a restart (the queued mail arrives once
// when it is back), and two servers on one database sending one outbox (each mail once).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts';

const FAST = {
  LABRADOR_MAIL_POLL_MS: '20',
  LABRADOR_MAIL_RETRY_BASE_MS: '20',
  LABRADOR_MAIL_TIMEOUT_MS: '2000',
};

describe('mail delivery', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  let author: TestUser;
  let watchers: TestUser[];
  let project: TestProject;

  async function newIssue(title: string) {
    const response = await t.request('POST', `/api/v3/projects/${project.id}/issues`, {
      token: author.token,
      body: { title },
    });
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  before(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ ...FAST, LABRADOR_SMTP_URL: smtp.url });
    author = await createUser(t, 'deliveryauthor');
    project = await createProject(t, { owner: author, path: 'delivered' });
    watchers = [];
    for (const name of ['deliverya', 'deliveryb', 'deliveryc']) {
      const user = await createUser(t, name);
      await addProjectMember(t, project.id, user.id, 30);
      const put = await t.request('PUT', `/api/v4/projects/${project.id}/notification_settings`, {
        token: user.token,
        body: { level: 'watch' },
      });
      assert.equal(put.status, 200);
      watchers.push(user);
    }
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  it('retries while the server answers 451 and delivers each mail once', async () => {
    smtp.mails.length = 0;
    smtp.refuse = 5;
    await newIssue('Greylisted');
    await t.server.mailWorker.drain({ retries: true });
    assert.equal(smtp.refused, 5);
    assert.deepEqual(smtp.mails.map((mail) => mail.to[0]).sort(), watchers.map((user) => user.email).sort());
  });

  it('keeps queued mail across a restart while the server is down, and sends it once', async () => {
    const port = smtp.port;
    await smtp.close();
    await newIssue('Queued while down');
    // A few attempts fail against the closed port (connection refused), then the app restarts.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await t.restart();
    smtp = await startSmtpSink({ port });
    await t.server.mailWorker.drain({ retries: true });
    const subjects = smtp.mails.map((mail) => mail.parsed.subject);
    assert.deepEqual(subjects, Array(3).fill('delivered | Queued while down (#2)'));
    assert.deepEqual(smtp.mails.map((mail) => mail.to[0]).sort(), watchers.map((user) => user.email).sort());
  });

  it('sends one outbox from two servers on one database, each mail once', async () => {
    smtp.mails.length = 0;
    const sibling = await t.sibling();
    try {
      const issues = [];
      for (let i = 0; i < 10; i++) issues.push(await newIssue(`Shared ${i}`));
      await Promise.all([
        t.server.mailWorker.drain({ retries: true }),
        sibling.mailWorker.drain({ retries: true }),
      ]);
      const ids = smtp.mails.map((mail) => `${mail.header('message-id')} ${mail.to[0]}`);
      assert.equal(ids.length, 30);
      assert.equal(new Set(ids).size, 30);
    } finally {
      await sibling.close();
    }
  });
});
