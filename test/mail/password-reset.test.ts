// Forgot password end to end over HTTP with a cookie-keeping client and a real SMTP server: the sign-in
// page links the form, the answer is the same for unknown addresses (and no mail goes), the mailed link
// sets a new password once, ends the user's other sessions, and sends a "password changed" mail; an
// expired link and too many requests for one address send nothing more.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/factory.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts';
import { WebClient, signedInClient } from '../helpers/web.ts';

describe('forgot password', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  let user: TestUser;

  const settle = () => t.server.mailWorker.drain({ retries: true });

  async function askForLink(email: string) {
    const web = new WebClient(t);
    const signIn = await web.get('/users/sign_in');
    assert.match(signIn.text, /href="\/users\/password\/new"/);
    const form = await web.get('/users/password/new');
    assert.equal(form.status, 200);
    const sent = await web.post('/users/password', { 'user[email]': email });
    assert.equal(sent.status, 302);
    assert.equal(sent.headers.location, '/users/sign_in?done=reset_sent');
    const notice = await web.get(String(sent.headers.location));
    assert.match(notice.text, /If your email address exists in our database/);
    return web;
  }

  before(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ LABRADOR_SMTP_URL: smtp.url, LABRADOR_MAIL_POLL_MS: '20' });
    user = await createUser(t, 'forgetful');
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  it('mails a one-time link that sets the password and ends other sessions', async () => {
    const other = await signedInClient(t, user);
    assert.equal((await other.get('/dashboard/projects')).status, 200);
    smtp.mails.length = 0;
    const web = await askForLink(user.email.toUpperCase());
    await settle();
    assert.equal(smtp.mails.length, 1);
    const mail = smtp.mails[0]!;
    assert.deepEqual(mail.to, [user.email]);
    assert.equal(mail.parsed.subject, 'Reset password instructions');
    const link = /(http:\/\/labrador\.test\/users\/password\/edit\?reset_password_token=\S+)/.exec(
      mail.parsed.text ?? '',
    )![1]!;
    const path = link.replace('http://labrador.test', '');
    const edit = await web.get(path);
    assert.equal(edit.status, 200);
    const token = new URL(link).searchParams.get('reset_password_token')!;

    const mismatch = await web.post('/users/password/edit', {
      'user[reset_password_token]': token,
      'user[password]': 'brand-new-secret-1',
      'user[password_confirmation]': 'something else',
    });
    assert.equal(mismatch.status, 422);
    const done = await web.post('/users/password/edit', {
      'user[reset_password_token]': token,
      'user[password]': 'brand-new-secret-1',
      'user[password_confirmation]': 'brand-new-secret-1',
    });
    assert.equal(done.status, 302);
    assert.equal(done.headers.location, '/users/sign_in?done=password_changed');

    // The other browser is signed out; the new password works and the old one does not.
    assert.equal((await other.get('/dashboard/projects')).status, 302);
    assert.equal((await new WebClient(t).signIn(user.username, user.password)).status, 401);
    assert.equal((await new WebClient(t).signIn(user.username, 'brand-new-secret-1')).status, 302);

    // The link works once.
    assert.equal((await web.get(path)).status, 404);
    const again = await web.post('/users/password/edit', {
      'user[reset_password_token]': token,
      'user[password]': 'third-secret-123',
      'user[password_confirmation]': 'third-secret-123',
    });
    assert.equal(again.status, 404);
    await settle();
    assert.deepEqual(
      smtp.mails.map((m) => m.parsed.subject),
      ['Reset password instructions', 'Password changed'],
    );
    // No secret but the reset link: the "changed" mail carries no token.
    assert.doesNotMatch(smtp.mails[1]!.parsed.text ?? '', /reset_password_token/);
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    smtp.mails.length = 0;
    await askForLink('nobody-here@example.com');
    await settle();
    assert.equal(smtp.mails.length, 0);
  });

  it('limits the links one address can ask for', async () => {
    const limited = await createUser(t, 'askstoomuch');
    smtp.mails.length = 0;
    for (let i = 0; i < 5; i++) await askForLink(limited.email);
    await settle();
    assert.equal(smtp.mails.length, 3);
  });

  it('refuses an expired or made-up link', async () => {
    const web = new WebClient(t);
    assert.equal((await web.get('/users/password/edit?reset_password_token=made-up')).status, 404);
    smtp.mails.length = 0;
    await askForLink(user.email);
    await settle();
    const token = /reset_password_token=(\S+)/.exec(smtp.mails[0]!.parsed.text ?? '')![1]!;
    // Two days and a minute later (the row's expiry moved back, as time passing would).
    await t.server.deps.db.kysely
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .execute();
    assert.equal((await web.get(`/users/password/edit?reset_password_token=${token}`)).status, 404);
  });
});
