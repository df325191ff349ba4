// The editor's template picker as a browser without script uses it: a GET form that reloads the page
// with `template_type` (or guesses it from `file_name`), then `template`, which fills the editor — a
// licence with the project's and the viewer's names — and the file committed from it; on the edit page
// only for a file whose name suits a kind, replacing its text.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProjectTeam, type TestProject, type TestUser } from '../helpers/factory.ts';
import { signedInClient } from '../helpers/web.ts';

/** The text between a tag's `>` and its closing tag, with the escapes undone. */
function textareaOf(html: string, name: string): string {
  const match = new RegExp(`<textarea name="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html);
  assert.ok(match, `no textarea ${name}`);
  return match[1]
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('pages: the new file template picker', () => {
  let t: TestApp;
  let developer: TestUser;
  let project: TestProject;
  let base = '';
  const year = new Date().getUTCFullYear();

  before(async () => {
    t = await startTestApp();
    ({ developer, project } = await createProjectTeam(t, 'picked', {
      owner: 'tplowner',
      developer: 'tpldev',
      reporter: 'tplrep',
      stranger: 'tplstranger',
    }));
    base = `/${project.fullPath}`;
  });
  after(() => t.close());

  it('chooses a type, then a template, and commits the filled file', async () => {
    const web = await signedInClient(t, developer);
    const blank = await web.get(`${base}/new/master`);
    assert.equal(blank.status, 200, blank.text);
    assert.match(
      blank.text,
      new RegExp(`<form class="template-picker" method="get" action="${base}/new/master"`),
    );
    assert.match(blank.text, /<select name="template_type" data-autosubmit="true">/);
    assert.match(blank.text, /<option value selected>Choose type<\/option>/);
    for (const label of ['LICENSE', '.gitignore', '.gitlab-ci.yml', 'Dockerfile'])
      assert.match(blank.text, new RegExp(`>${label.replace(/\./g, '\\.')}</option>`));
    assert.doesNotMatch(blank.text, /name="template"[ >]/);

    const typed = await web.get(`${base}/new/master?template_type=gitignores`);
    assert.match(typed.text, /<option value="gitignores" selected>\.gitignore<\/option>/);
    assert.match(typed.text, /<optgroup label="Languages">[\s\S]*<option value="Python">Python<\/option>/);
    assert.match(typed.text, /<optgroup label="Global">/);
    assert.match(typed.text, /<button type="submit">Apply template<\/button>/);

    const filled = await web.get(`${base}/new/master?template_type=gitignores&template=Python`);
    assert.equal(filled.status, 200);
    assert.match(filled.text, /<option value="Python" selected>Python<\/option>/);
    assert.match(filled.text, /name="file_name" value="\.gitignore"/);
    assert.match(textareaOf(filled.text, 'content'), /^__pycache__\/$/m);

    // The licence takes the project's name and the viewer's.
    const license = await web.get(`${base}/new/master?template_type=licenses&template=mit`);
    assert.match(license.text, /<optgroup label="Popular">/);
    assert.match(license.text, /name="file_name" value="LICENSE"/);
    const text = textareaOf(license.text, 'content');
    assert.ok(text.startsWith(`MIT License\n\nCopyright (c) ${year} ${developer.name}\n`), text.slice(0, 80));
    const gpl = textareaOf(
      (await web.get(`${base}/new/master?template_type=licenses&template=gpl-3.0`)).text,
      'content',
    );
    assert.match(gpl, new RegExp(`^ {4}${project.name}$`, 'm'));

    await web.get(`${base}/new/master?template_type=licenses&template=mit`);
    const created = await web.post(`${base}/create/master`, {
      file_name: 'LICENSE',
      content: text,
      commit_message: 'Add LICENSE',
      target_branch: 'master',
    });
    assert.equal(created.status, 302, created.text);
    const file = await t.request(
      'GET',
      `/api/v4/projects/${project.id}/repository/files/LICENSE/raw?ref=master`,
      { token: developer.token },
    );
    assert.equal(file.status, 200, file.text);
    assert.equal(file.text, text);
  });

  it('guesses the type from the file name and keeps a name that suits it', async () => {
    const web = await signedInClient(t, developer);
    const guessed = await web.get(`${base}/new/master?file_name=.gitlab-ci.yml`);
    assert.match(guessed.text, /<option value="gitlab_ci_ymls" selected>\.gitlab-ci\.yml<\/option>/);
    assert.match(guessed.text, /<input type="hidden" name="file_name" value="\.gitlab-ci\.yml"/);
    assert.match(guessed.text, /<optgroup label="Pages">/);
    const ci = await web.get(`${base}/new/master?file_name=.gitlab-ci.yml&template=Go`);
    assert.match(textareaOf(ci.text, 'content'), /go test -race/);

    const copying = await web.get(`${base}/new/master?file_name=COPYING&template_type=licenses&template=isc`);
    assert.match(copying.text, /name="file_name" value="COPYING"/);
    // A name for another kind gives way to the kind's usual one.
    const docker = await web.get(
      `${base}/new/master?file_name=notes.txt&template_type=dockerfiles&template=Go`,
    );
    assert.match(docker.text, /name="file_name" value="Dockerfile"/);
    assert.match(textareaOf(docker.text, 'content'), /^FROM golang:/m);

    // Unknown kinds and templates choose nothing, and fill nothing.
    const bogus = await web.get(`${base}/new/master?template_type=bogus&template=mit`);
    assert.equal(bogus.status, 200);
    assert.match(bogus.text, /<option value selected>Choose type<\/option>/);
    assert.equal(textareaOf(bogus.text, 'content'), '');
    const unknown = await web.get(`${base}/new/master?template_type=gitignores&template=Cobol`);
    assert.equal(unknown.status, 200);
    assert.match(unknown.text, /<option value selected>Choose a template<\/option>/);
    assert.equal(textareaOf(unknown.text, 'content'), '');
  });

  it('offers the picker when editing a file whose name suits a kind', async () => {
    const added = await t.request('POST', `/api/v4/projects/${project.id}/repository/files/.gitignore`, {
      token: developer.token,
      body: { branch: 'master', content: 'tmp/\n', commit_message: 'Add .gitignore' },
    });
    assert.equal(added.status, 201, added.text);
    const web = await signedInClient(t, developer);
    const plain = await web.get(`${base}/edit/master/README.md`);
    assert.equal(plain.status, 200);
    assert.doesNotMatch(plain.text, /template-picker/);

    const edit = await web.get(`${base}/edit/master/.gitignore`);
    assert.match(
      edit.text,
      new RegExp(`<form class="template-picker" method="get" action="${base}/edit/master/\\.gitignore"`),
    );
    assert.match(edit.text, /<option value="gitignores" selected>/);
    assert.doesNotMatch(edit.text, /type="hidden" name="file_name"/);
    assert.equal(textareaOf(edit.text, 'content'), 'tmp/\n');
    const picked = await web.get(`${base}/edit/master/.gitignore?template=Rust`);
    const content = textareaOf(picked.text, 'content');
    assert.match(content, /^\/target\/$/m);
    const updated = await web.post(`${base}/update/master/.gitignore`, {
      content,
      commit_message: 'Use the Rust template',
      target_branch: 'master',
      original_blob_id: /name="original_blob_id" value="([0-9a-f]+)"/.exec(picked.text)![1],
    });
    assert.equal(updated.status, 302, updated.text);
    const raw = await t.request(
      'GET',
      `/api/v4/projects/${project.id}/repository/files/.gitignore/raw?ref=master`,
      {
        token: developer.token,
      },
    );
    assert.equal(raw.text, content);
  });
});
