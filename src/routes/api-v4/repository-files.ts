// Files of a project's repository as v4 has them (GitLab's lib/api/files.rb): the file at its URL-encoded
// path, with its metadata also as X-Gitlab-* headers (HEAD gives only those), raw, its blame (runs of
// lines, each with the commit that last changed them, the headers set too), and the writes (v4's
// `branch` for v3's `branch_name`, `start_branch`, `last_commit_id`, `execute_filemode`) over v3's
// loaders, reader and services. Each write is one commit, as a push by the caller (developers and up).
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { paramValueInvalid } from '../../errors.ts';
import { loadProjectRepository, loadWritableRepository, type LoadedProject } from '../../http/loaders.ts';
import {
  grapeParams,
  optionalBoolean,
  optionalString,
  requestParams,
  type Params,
} from '../../http/params.ts';
import {
  createFile,
  deleteFile,
  updateFile,
  type FileChange,
} from '../../services/repository/file-commits.ts';
import { fileBlame, repositoryFile } from '../../views/blob-views.ts';
import { defaultRef } from '../../views/repository-access.ts';
import {
  presentFileChange,
  presentFileHeaders,
  presentFileMetadata,
  withBase64Content,
} from '../../presenters/api-v4/repository-file.ts';
import { presentCommit } from '../../presenters/api-v4/commit.ts';
import { fileChange } from '../api-v3/repository-files.ts';
import { sendRaw } from '../api-v3/repository.ts';
import { noContent } from './conventions.ts';

type FileRequest = FastifyRequest<{ Params: { id: string; file_path: string } }>;

const PATH = '/projects/:id/repository/files/:file_path';

/** A write's parameters as Grape declares them (every problem at once), then v3's reader and v4's extras. */
function v4FileChange(params: Params, withContent: boolean): FileChange {
  const values = grapeParams(params, [
    { name: 'branch', kind: 'string', required: true },
    { name: 'commit_message', kind: 'string', required: true },
    ...(withContent ? [{ name: 'content', kind: 'string' as const, required: true }] : []),
    { name: 'start_branch', kind: 'string', required: false },
    { name: 'last_commit_id', kind: 'string', required: false },
  ]);
  const encoding = optionalString(params, 'encoding');
  if (encoding !== undefined && encoding !== 'text' && encoding !== 'base64')
    throw paramValueInvalid('encoding');
  return {
    ...fileChange(params, withContent, 'branch'),
    startBranch: values.start_branch as string | undefined,
    lastCommitId: values.last_commit_id as string | undefined,
    executeFilemode: optionalBoolean(params, 'execute_filemode'),
  };
}

export function register(app: FastifyInstance, deps: Deps): void {
  /** The file `ref` (required unless `defaultToBranch`) names, with its metadata set as headers. */
  async function fileWithHeaders(
    request: FileRequest,
    reply: FastifyReply,
    project: LoadedProject,
    ref: string,
  ) {
    const file = await repositoryFile(deps, project, request.params.file_path, ref);
    const metadata = presentFileMetadata(file, await file.details());
    reply.headers(presentFileHeaders(metadata));
    return { file, metadata };
  }

  const requiredRef = (request: FastifyRequest) =>
    grapeParams(requestParams(request), [{ name: 'ref', kind: 'string', required: true }]).ref as string;

  // HEAD is its own route (headers, no content read), so GET exposes none.
  app.get(PATH, { exposeHeadRoute: false }, async (request: FileRequest, reply) => {
    const project = await loadProjectRepository(deps, request);
    const { file, metadata } = await fileWithHeaders(request, reply, project, requiredRef(request));
    return reply.type('application/json').send(Readable.from(withBase64Content(metadata, file.content())));
  });

  app.head(PATH, async (request: FileRequest, reply) => {
    const project = await loadProjectRepository(deps, request);
    await fileWithHeaders(request, reply, project, requiredRef(request));
    return reply.type('application/json').send();
  });

  app.get(`${PATH}/blame`, async (request: FileRequest, reply) => {
    const project = await loadProjectRepository(deps, request);
    const ref = requiredRef(request);
    const { file } = await fileWithHeaders(request, reply, project, ref);
    const ranges = await fileBlame(deps, project, file.path, ref);
    return ranges.map((range) => ({
      commit: presentCommit(range.commit, project, deps.config.externalUrl),
      lines: range.lines,
    }));
  });

  app.get(`${PATH}/raw`, async (request: FileRequest, reply) => {
    const project = await loadProjectRepository(deps, request);
    const ref = optionalString(requestParams(request), 'ref') ?? defaultRef(project);
    const { file } = await fileWithHeaders(request, reply, project, ref);
    return sendRaw(reply, { size: file.blob.size, stream: file.content() });
  });

  app.post(PATH, async (request: FileRequest, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    const change = v4FileChange(requestParams(request), true);
    const filePath = await createFile(deps, pusher, change);
    return reply.code(201).send(presentFileChange(filePath, change.branchName));
  });

  app.put(PATH, async (request: FileRequest) => {
    const pusher = await loadWritableRepository(deps, request);
    const change = v4FileChange(requestParams(request), true);
    return presentFileChange(await updateFile(deps, pusher, change), change.branchName);
  });

  app.delete(PATH, async (request: FileRequest, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    await deleteFile(deps, pusher, v4FileChange(requestParams(request), false));
    return noContent(reply);
  });
}
