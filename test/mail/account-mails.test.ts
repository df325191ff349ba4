// Mails about one's own account through a real SMTP server: an account made by an administrator gets a
// welcome mail whose link sets a password (once, over HTTP), every change of a password is told to its
// owner, and adding an SSH key tells its owner.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/factory.ts';
import { freshPublicKey } from '../helpers/ssh.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts';
import { WebClient } from '../helpers/web.ts';

describe('account mails', () => {
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

  it('welcomes an account an administrator made, with a link that sets its password', async () => {
    smtp.mails.length = 0;
    const created = await t.request('POST', '/api/v3/users', {
      token: t.rootToken,
      body: {
        email: 'newcomer@example.com',
        username: 'newcomer',
        name: 'New Comer',
        password: 'temporary-123',
      },
    });
    assert.equal(created.status, 201, created.text);
    await settle();
    assert.equal(smtp.mails.length, 1);
    const mail = smtp.mails[0]!;
    assert.deepEqual(mail.to, ['newcomer@example.com']);
    assert.equal(mail.parsed.subject, 'Account was created for you');
    assert.match(mail.parsed.text ?? '', /Your username is newcomer/);
    const link = /(http:\/\/labrador\.test\/users\/password\/edit\?reset_password_token=\S+)/.exec(
      mail.parsed.text ?? '',
    )![1]!;
    const token = new URL(link).searchParams.get('reset_password_token')!;
    const web = new WebClient(t);
    assert.equal((await web.get(link.replace('http://labrador.test', ''))).status, 200);
    const set = await web.post('/users/password/edit', {
      'user[reset_password_token]': token,
      'user[password]': 'my-own-password-1',
      'user[password_confirmation]': 'my-own-password-1',
    });
    assert.equal(set.status, 302);
    assert.equal((await new WebClient(t).signIn('newcomer', 'my-own-password-1')).status, 302);
    await settle();
    assert.deepEqual(
      smtp.mails.map((m) => m.parsed.subject),
      ['Account was created for you', 'Password changed'],
    );
  });

  it('tells the owner when the password changes on the profile page or by an administrator', async () => {
    const owner = await createUser(t, 'pwchanger');
    const admin = await createUser(t, 'pwadmin', { admin: true });
    const web = new WebClient(t);
    await web.signIn(owner.username, owner.password);
    await web.get('/profile/password/edit');
    smtp.mails.length = 0;
    const changed = await web.post('/profile/password', {
      'user[current_password]': owner.password,
      'user[password]': 'changed-on-profile-1',
      'user[password_confirmation]': 'changed-on-profile-1',
    });
    assert.equal(changed.status, 302);
    for (const version of ['v3', 'v4']) {
      const put = await t.request('PUT', `/api/${version}/users/${owner.id}`, {
        token: admin.token,
        body: { password: `changed-by-admin-${version}` },
      });
      assert.equal(put.status, 200, put.text);
    }
    // An edit that leaves the password alone mails nothing.
    const renamed = await t.request('PUT', `/api/v4/users/${owner.id}`, {
      token: admin.token,
      body: { name: 'Renamed Changer' },
    });
    assert.equal(renamed.status, 200);
    await settle();
    assert.deepEqual(
      smtp.mails.map((mail) => [mail.to[0], mail.parsed.subject]),
      [
        [owner.email, 'Password changed'],
        [owner.email, 'Password changed'],
        [owner.email, 'Password changed'],
      ],
    );
    assert.match(smtp.mails[0]!.parsed.text ?? '', /The password of your account pwchanger was changed/);
    assert.equal((await new WebClient(t).signIn(owner.username, 'changed-by-admin-v4')).status, 302);
  });

  it('tells the owner of a new SSH key, and nobody else', async () => {
    const owner = await createUser(t, 'keyholder');
    smtp.mails.length = 0;
    const added = await t.request('POST', '/api/v3/user/keys', {
      token: owner.token,
      body: { title: 'laptop', key: freshPublicKey('laptop') },
    });
    assert.equal(added.status, 201, added.text);
    await settle();
    assert.deepEqual(
      smtp.mails.map((mail) => [mail.to[0], mail.parsed.subject]),
      [[owner.email, 'SSH key was added to your account']],
    );
    assert.match(smtp.mails[0]!.parsed.text ?? '', new RegExp(`laptop \\(${added.body.fingerprint ?? ''}`));
  });
});
