// `include: project` from a real push: files of another project on this server that the pusher may
// read, at a ref, with their own local includes read in that project; a project the pusher may not read
// is a yml error naming it, as one that does not exist.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildsOf, commitFiles, startCiProject, type CiProject } from '../helpers/ci.ts';
import { createProject, createUser } from '../helpers/factory.ts';
import { repoUrl } from '../helpers/git.ts';

describe('include: project', () => {
  let ci: CiProject;

  before(async () => {
    ci = await startCiProject({}, 'includer');
    const shared = await createProject(ci.t, { owner: ci.owner, path: 'shared-ci' });
    const work = await ci.client.workTree('shared');
    await ci.client.ok(
      ['remote', 'add', 'origin', repoUrl(ci.base, shared.fullPath, ci.owner.username, ci.owner.password)],
      work,
    );
    await commitFiles(
      ci.client,
      work,
      {
        'templates/jobs.yml': 'include: {local: templates/more.yml}\nshared-job:\n  script: echo shared\n',
        'templates/more.yml': 'nested-job:\n  script: echo nested\n',
      },
      'Templates',
    );
    await ci.client.ok(['push', '-q', 'origin', 'master'], work);
    await ci.client.ok(['tag', 'v1'], work);
    await commitFiles(ci.client, work, { 'templates/jobs.yml': 'changed-job:\n  script: x\n' }, 'Change');
    await ci.client.ok(['push', '-q', 'origin', 'master', 'v1'], work);
    const stranger = await createUser(ci.t, 'includestranger');
    await createProject(ci.t, { owner: stranger, path: 'secret-ci' });
  });
  after(() => ci.close());

  it('merges the files of a readable project at the ref, nested includes read there', async () => {
    const pipeline = await ci.push({
      '.gitlab-ci.yml': `include:\n  - project: ${ci.owner.username}/shared-ci\n    ref: v1\n    file: templates/jobs.yml\nown:\n  script: x\n`,
    });
    assert.ok(pipeline);
    assert.equal(pipeline.yaml_errors, null);
    const names = (await buildsOf(ci.t, pipeline.id)).map((b) => b.name).sort();
    assert.deepEqual(names, ['nested-job', 'own', 'shared-job']);
    const latest = await ci.push({
      '.gitlab-ci.yml': `include:\n  project: ${ci.owner.username}/shared-ci\n  file: [templates/jobs.yml]\nown:\n  script: x\n`,
    });
    assert.deepEqual((await buildsOf(ci.t, latest!.id)).map((b) => b.name).sort(), ['changed-job', 'own']);
  });

  it('names a project the pusher may not read, a missing file and a missing ref', async () => {
    const hidden = await ci.push({
      '.gitlab-ci.yml': 'include: {project: includestranger/secret-ci, file: a.yml}\nown:\n  script: x\n',
    });
    assert.match(
      hidden!.yaml_errors ?? '',
      /^Project `includestranger\/secret-ci` not found or access denied!/,
    );
    const missing = await ci.push({
      '.gitlab-ci.yml': `include: {project: ${ci.owner.username}/shared-ci, file: nope.yml}\nown:\n  script: x\n`,
    });
    assert.equal(
      missing!.yaml_errors,
      `Project \`${ci.owner.username}/shared-ci\` file \`nope.yml\` does not exist!`,
    );
    const ref = await ci.push({
      '.gitlab-ci.yml': `include: {project: ${ci.owner.username}/shared-ci, ref: v9, file: a.yml}\nown:\n  script: x\n`,
    });
    assert.equal(
      ref!.yaml_errors,
      `Project \`${ci.owner.username}/shared-ci\` reference \`v9\` does not exist!`,
    );
  });
});
