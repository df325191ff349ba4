// Profile settings and the new-project form as a browser without script uses them: the same
// validation and messages as the API, changes visible through the API, form tokens required.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/factory.ts';
import { makeKey } from '../helpers/ssh.ts';
import { WebClient } from '../helpers/web.ts';

describe('pages: profile and new project', () => {
  let t: TestApp;
  let user: TestUser;
  let web: WebClient;
  const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-web-keys-'));
  before(async () => {
    t = await startTestApp();
    user = await createUser(t, 'fran');
    web = new WebClient(t);
    assert.equal((await web.signIn(user.username, user.password)).status, 302);
  });
  after(async () => {
    await t.close();
    fs.rmSync(keyDir, { recursive: true, force: true });
  });

  it('signed out, the settings ask for sign-in and come back', async () => {
    const response = await new WebClient(t).get('/profile/keys');
    assert.equal(response.status, 302);
    assert.equal(response.headers.location, '/users/sign_in?redirect_to=%2Fprofile%2Fkeys');
  });

  it('/profile changes name and bio; a taken email is refused with the API message', async () => {
    await web.get('/profile');
    const saved = await web.post('/profile', {
      'user[name]': 'Fran <F>',
      'user[email]': user.email,
      'user[bio]': 'Hi',
    });
    assert.equal(saved.status, 302);
    const api = await t.request('GET', '/api/v3/user', { token: user.token });
    assert.equal(api.body.name, 'Fran <F>');
    assert.equal(api.body.bio, 'Hi');
    const page = await web.get('/profile?done=profile');
    assert.match(page.text, /value="Fran &lt;F>"/);
    assert.match(page.text, /successfully updated/);
    const taken = await web.post('/profile', { 'user[name]': 'Fran', 'user[email]': 'admin@example.com' });
    assert.equal(taken.status, 422);
    assert.match(taken.text, /Email has already been taken/);
  });

  it('/profile/keys adds a key (the API sees it), refuses a bad one, and deletes', async () => {
    const key = makeKey(keyDir, 'fran-key');
    await web.get('/profile/keys');
    const added = await web.post('/profile/keys', { 'key[title]': 'laptop', 'key[key]': key.publicKey });
    assert.equal(added.status, 302);
    const keys = await t.request('GET', '/api/v3/user/keys', { token: user.token });
    assert.deepEqual(
      keys.body.map((k: { title: string }) => k.title),
      ['laptop'],
    );
    const bad = await web.post('/profile/keys', { 'key[title]': 'junk', 'key[key]': 'ssh-rsa nonsense' });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /key/i);
    const again = await web.post('/profile/keys', { 'key[title]': 'again', 'key[key]': key.publicKey });
    assert.equal(again.status, 422);
    assert.match(again.text, /has already been taken/);
    // A delete without the form token changes nothing.
    const id = keys.body[0].id;
    assert.equal((await web.request('POST', `/profile/keys/${id}/delete`, {})).status, 422);
    assert.equal((await t.request('GET', '/api/v3/user/keys', { token: user.token })).body.length, 1);
    await web.get('/profile/keys');
    assert.equal((await web.post(`/profile/keys/${id}/delete`)).status, 302);
    assert.equal((await t.request('GET', '/api/v3/user/keys', { token: user.token })).body.length, 0);
  });

  it('/profile/emails adds and removes a secondary email', async () => {
    await web.get('/profile/emails');
    assert.equal((await web.post('/profile/emails', { 'email[email]': 'fran.two@example.com' })).status, 302);
    const emails = await t.request('GET', '/api/v3/user/emails', { token: user.token });
    assert.deepEqual(
      emails.body.map((e: { email: string }) => e.email),
      ['fran.two@example.com'],
    );
    const bad = await web.post('/profile/emails', { 'email[email]': 'not-an-email' });
    assert.equal(bad.status, 422);
    await web.get('/profile/emails');
    assert.equal((await web.post(`/profile/emails/${emails.body[0].id}/delete`)).status, 302);
    assert.equal((await t.request('GET', '/api/v3/user/emails', { token: user.token })).body.length, 0);
  });

  it('/profile/account shows the private token and resets it', async () => {
    const page = await web.get('/profile/account');
    assert.match(page.text, new RegExp(`value="${user.token}"`));
    assert.equal((await web.post('/profile/reset_private_token')).status, 302);
    assert.equal((await t.request('GET', '/api/v3/user', { token: user.token })).status, 401);
    const fresh = await web.get('/profile/account');
    const token = /id="private-token" type="text" readonly value="([^"]+)"/i.exec(fresh.text)?.[1];
    assert.ok(token && token !== user.token);
    assert.equal((await t.request('GET', '/api/v3/user', { token })).status, 200);
    user.token = token;
  });

  it('/profile/password needs the current password and signs other browsers out', async () => {
    const other = new WebClient(t, '10.3.3.3');
    await other.signIn(user.username, user.password);
    await web.get('/profile/password/edit');
    const wrong = await web.post('/profile/password', {
      'user[current_password]': 'not-it-at-all',
      'user[password]': 'brand-new-pass-1',
      'user[password_confirmation]': 'brand-new-pass-1',
    });
    assert.equal(wrong.status, 422);
    const mismatch = await web.post('/profile/password', {
      'user[current_password]': user.password,
      'user[password]': 'brand-new-pass-1',
      'user[password_confirmation]': 'brand-new-pass-2',
    });
    assert.equal(mismatch.status, 422);
    const short = await web.post('/profile/password', {
      'user[current_password]': user.password,
      'user[password]': 'short',
      'user[password_confirmation]': 'short',
    });
    assert.equal(short.status, 422);
    assert.match(short.text, /too short/);
    const changed = await web.post('/profile/password', {
      'user[current_password]': user.password,
      'user[password]': 'brand-new-pass-1',
      'user[password_confirmation]': 'brand-new-pass-1',
    });
    assert.equal(changed.status, 302);
    assert.equal((await web.get('/profile')).status, 200, 'this browser stays signed in');
    assert.equal((await other.get('/profile')).status, 302, 'the other browser is signed out');
    user.password = 'brand-new-pass-1';
  });

  it('/projects/new creates a project through the same service as POST /projects', async () => {
    const form = await web.get('/projects/new');
    assert.equal(form.status, 200);
    const namespaceId = /<option value="(\d+)" selected>fran<\/option>/.exec(form.text)?.[1];
    assert.ok(namespaceId, 'personal namespace preselected');
    const created = await web.post('/projects', {
      'project[namespace_id]': namespaceId,
      'project[name]': 'Web Made',
      'project[description]': 'from the form',
      'project[visibility_level]': '20',
    });
    assert.equal(created.status, 302);
    assert.equal(created.headers.location, '/fran/web-made?done=created');
    const home = await web.get(created.headers.location!);
    assert.match(home.text, /role="status">Project 'Web Made' was successfully created\.</);
    const api = await t.request('GET', `/api/v3/projects/${encodeURIComponent('fran/web-made')}`, {
      token: user.token,
    });
    assert.equal(api.status, 200);
    assert.equal(api.body.visibility_level, 20);
    assert.equal(api.body.description, 'from the form');
    const twice = await web.post('/projects', {
      'project[namespace_id]': namespaceId,
      'project[name]': 'Web Made',
      'project[visibility_level]': '0',
    });
    assert.equal(twice.status, 422);
    assert.match(twice.text, /has already been taken/);
    const blank = await web.post('/projects', { 'project[name]': '' });
    assert.equal(blank.status, 422);
  });
});
