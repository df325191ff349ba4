// Files of a project's repository (GitLab 8.13's lib/api/files.rb): one file with its content base64
// encoded (streamed); creating, updating and deleting a file, each one commit on a branch, made as a push
// under the same rules as `git push` (developers and up).
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadProjectRepository, loadWritableRepository } from '../../http/loaders.ts';
import { optionalString, requestParams, requiredString, type Params } from '../../http/params.ts';
import {
  createFile,
  deleteFile,
  updateFile,
  type FileChange,
} from '../../services/repository/file-commits.ts';
import { repositoryFile } from '../../views/blob-views.ts';
import { fileJsonChunks, presentFileChange } from '../../presenters/api-v3/repository-file.ts';

/**
 * required_attributes! in GitLab's order, then the optional ones; the branch under v3's `branch_name` or
 * v4's `branch` (so a missing one is named as the caller's version names it).
 */
export function fileChange(params: Params, withContent: boolean, branchParam = 'branch_name'): FileChange {
  const filePath = requiredString(params, 'file_path');
  const branchName = requiredString(params, branchParam);
  const content = withContent ? requiredString(params, 'content') : undefined;
  return {
    filePath,
    branchName,
    content,
    commitMessage: requiredString(params, 'commit_message'),
    encoding: optionalString(params, 'encoding'),
    authorEmail: optionalString(params, 'author_email'),
    authorName: optionalString(params, 'author_name'),
  };
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/repository/files', async (request, reply) => {
    const project = await loadProjectRepository(deps, request);
    const params = requestParams(request);
    const filePath = requiredString(params, 'file_path');
    const ref = requiredString(params, 'ref');
    const file = await repositoryFile(deps, project, filePath, ref);
    return reply
      .type('application/json; charset=utf-8')
      .send(Readable.from(fileJsonChunks({ ...file, content: file.content() })));
  });

  app.post('/projects/:id/repository/files', async (request, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    const change = fileChange(requestParams(request), true);
    const filePath = await createFile(deps, pusher, change);
    return reply.code(201).send(presentFileChange(filePath, change.branchName));
  });

  app.put('/projects/:id/repository/files', async (request) => {
    const pusher = await loadWritableRepository(deps, request);
    const change = fileChange(requestParams(request), true);
    return presentFileChange(await updateFile(deps, pusher, change), change.branchName);
  });

  app.delete('/projects/:id/repository/files', async (request) => {
    const pusher = await loadWritableRepository(deps, request);
    const change = fileChange(requestParams(request), false);
    return presentFileChange(await deleteFile(deps, pusher, change), change.branchName);
  });
}
