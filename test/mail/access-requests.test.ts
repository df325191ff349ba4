// Access-request mails through a real SMTP server: a request tells the project's masters (and nobody
// else); a project without masters falls back to its group's owners; approval tells the requester.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
} from '../helpers/factory.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts';

describe('access request mails', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  const settle = () => t.server.mailWorker.drain({ retries: true });

  before(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ LABRADOR_SMTP_URL: smtp.url, LABRADOR_MAIL_POLL_MS: '20' });
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  it('mails the masters of a request, and the requester of its approval', async () => {
    const owner = await createUser(t, 'mailowner');
    const developer = await createUser(t, 'maildev');
    const asker = await createUser(t, 'mailasker');
    const project = await createProject(t, { owner, path: 'mailed', visibility: 20 });
    await addProjectMember(t, project.id, developer.id, 30);
    await t.request('PUT', `/api/v4/projects/${project.id}`, {
      token: owner.token,
      body: { request_access_enabled: true },
    });
    await settle();
    smtp.mails.length = 0;
    const asked = await t.request('POST', `/api/v3/projects/${project.id}/access_requests`, {
      token: asker.token,
    });
    assert.equal(asked.status, 201);
    await settle();
    assert.deepEqual(
      smtp.mails.map((mail) => [mail.to[0], mail.parsed.subject]),
      [[owner.email, `Request to join the ${owner.username} / mailed project`]],
    );
    assert.match(smtp.mails[0]!.parsed.text ?? '', /mailasker Name \(@mailasker\) requested project access/);
    assert.match(smtp.mails[0]!.parsed.text ?? '', /\/mailowner\/mailed\/project_members/);

    smtp.mails.length = 0;
    const approved = await t.request(
      'PUT',
      `/api/v3/projects/${project.id}/access_requests/${asker.id}/approve`,
      {
        token: owner.token,
      },
    );
    assert.equal(approved.status, 201);
    await settle();
    assert.deepEqual(
      smtp.mails.map((mail) => [mail.to[0], mail.parsed.subject]),
      [[asker.email, `Access to the ${owner.username} / mailed project was granted`]],
    );
  });

  it("mails a group's owners when its project has no masters, and a denial to the requester", async () => {
    const groupOwner = await createUser(t, 'mailgroupowner');
    const groupId = await createGroup(t, 'mailgroup', 20);
    await addGroupMember(t, groupId, groupOwner.id, 50);
    const project = await createProject(t, {
      owner: groupOwner,
      path: 'ingroup',
      namespace: 'mailgroup',
      visibility: 20,
    });
    await t.request('PUT', `/api/v4/projects/${project.id}`, {
      token: groupOwner.token,
      body: { request_access_enabled: true },
    });
    const asker = await createUser(t, 'mailgroupasker');
    await settle();
    smtp.mails.length = 0;
    assert.equal(
      (await t.request('POST', `/api/v4/projects/${project.id}/access_requests`, { token: asker.token }))
        .status,
      201,
    );
    await settle();
    assert.deepEqual(
      smtp.mails.map((mail) => mail.to[0]),
      [groupOwner.email],
    );
    smtp.mails.length = 0;
    const denied = await t.request('DELETE', `/api/v4/projects/${project.id}/access_requests/${asker.id}`, {
      token: groupOwner.token,
    });
    assert.equal(denied.status, 204);
    await settle();
    assert.deepEqual(
      smtp.mails.map((mail) => [mail.to[0], mail.parsed.subject]),
      [[asker.email, 'Access to the Group mailgroup / ingroup project was denied']],
    );
  });
});
