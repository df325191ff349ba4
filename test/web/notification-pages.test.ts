// The notification pages as a browser without script uses them: /profile/notifications (linked from the
// profile's tabs, the mail footer's link) sets the global level and custom's switches; a project's page
// offers its notification menu, whose choice the profile page then lists; the same settings are what
// v4's API reads. A project the user may not read is a 404 and changes nothing; a bad level a 400.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { signedInClient, type WebClient } from '../helpers/web.ts';

describe('pages: notification settings', () => {
  let t: TestApp;
  let user: TestUser;
  let web: WebClient;
  let project: TestProject;
  let hidden: TestProject;

  const apiSetting = async (path: string) =>
    (await t.request('GET', `/api/v4${path}`, { token: user.token })).body;

  before(async () => {
    t = await startTestApp();
    user = await createUser(t, 'notified');
    const other = await createUser(t, 'elsewhere');
    project = await createProject(t, { owner: user, path: 'heard' });
    hidden = await createProject(t, { owner: other, path: 'unheard' });
    web = await signedInClient(t, user);
  });
  after(() => t.close());

  it('is linked from the profile tabs and sets the global level with custom switches', async () => {
    assert.match((await web.get('/profile')).text, /href="\/profile\/notifications"/);
    const page = await web.get('/profile/notifications');
    assert.equal(page.status, 200);
    assert.match(page.text, /Global notification level/);
    assert.match(page.text, /<option value="participating" selected /);
    // A global level cannot defer to itself.
    assert.doesNotMatch(page.text, /<option value="global"/);
    const saved = await web.post('/profile/notifications', {
      'notification_setting[level]': 'custom',
      'notification_setting[failed_pipeline]': 'true',
      'notification_setting[new_issue]': 'true',
    });
    assert.equal(saved.status, 302);
    assert.equal(saved.headers.location, '/profile/notifications?done=saved');
    const setting = await apiSetting('/notification_settings');
    assert.equal(setting.level, 'custom');
    assert.equal(setting.events.failed_pipeline, true);
    assert.equal(setting.events.new_issue, true);
    assert.equal(setting.events.new_note, false);
    const again = await web.get('/profile/notifications?done=saved');
    assert.match(again.text, /Notification settings saved/);
    assert.match(again.text, /name="notification_setting\[new_issue\]" value="true" checked\/>/);
    assert.doesNotMatch(again.text, /name="notification_setting\[new_note\]" value="true" checked\/>/);
  });

  it("sets a project's level from its page and lists it on the profile page", async () => {
    const home = await web.get(`/${project.fullPath}`);
    assert.equal(home.status, 200);
    assert.match(home.text, /<form[^>]*action="\/notification_settings"[^>]*aria-label="Notifications"/);
    const chosen = await web.post('/notification_settings', {
      project_id: String(project.id),
      'notification_setting[level]': 'watch',
      return_to: `/${project.fullPath}`,
    });
    assert.equal(chosen.status, 302);
    assert.equal(chosen.headers.location, `/${project.fullPath}`);
    assert.equal((await apiSetting(`/projects/${project.id}/notification_settings`)).level, 'watch');
    assert.match((await web.get(`/${project.fullPath}`)).text, /<option value="watch" selected /);
    const profile = await web.get('/profile/notifications');
    assert.match(profile.text, /Projects \(1\)/);
    assert.match(profile.text, new RegExp(`href="/${project.fullPath}"`));
  });

  it('answers 404 for a project the user may not read and 400 for a bad level', async () => {
    await web.get('/profile/notifications');
    const refused = await web.post('/notification_settings', {
      project_id: String(hidden.id),
      'notification_setting[level]': 'watch',
    });
    assert.equal(refused.status, 404);
    const rows = await t.server.deps.db.kysely
      .selectFrom('notification_settings')
      .selectAll()
      .where('source_type', '=', 'Project')
      .where('source_id', '=', hidden.id)
      .execute();
    assert.deepEqual(rows, []);
    const bad = await web.post('/notification_settings', {
      project_id: String(project.id),
      'notification_setting[level]': 'loud',
    });
    assert.equal(bad.status, 400);
    assert.equal((await apiSetting(`/projects/${project.id}/notification_settings`)).level, 'watch');
  });
});
