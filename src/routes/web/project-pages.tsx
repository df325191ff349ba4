// /<namespace>/<project> and its repository pages. The project is loaded through the same loader and
// access policy as the API (404 for a signed-in visitor who may not read it; a signed-out one is asked
// to sign in); repository reads go through views/repository-pages.ts.
import type { TreeEntry } from '../../git/trees.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { projectFullPath, refPath } from '../../domain/paths.ts';
import type { Deps } from '../../deps.ts';
import { loadPageProject, type LoadedProject } from '../../http/loaders.ts';
import { optionalInteger, optionalString, requestParams } from '../../http/params.ts';
import { notFound, paramInvalid } from '../../errors.ts';
import { loadProjectHead } from './project-head.ts';
import { newestPipelineOfCommit } from '../../views/ci-page-views.ts';
import { canReadPipelines } from '../../policies/ci.ts';
import { canDownloadCode } from '../../policies/git-access.ts';
import { commitNoteable, readCommentedCommit } from '../../services/repository/commit-notes.ts';
import { commitNoteThread } from '../../views/note-views.ts';
import { findCommitId } from '../../views/repository-access.ts';
import type { Flash } from '../../presenters/html/layout.tsx';
import type { CommentTargets } from './note-pages.ts';
import { projectTags } from '../../views/tag-views.ts';
import {
  atDefaultRef,
  atRefPath,
  blobView,
  objectTypeAt,
  commitHistory,
  commitPatch,
  commitWithDiff,
  directoryListing,
  findReadme,
  rawFile,
  smallFileText,
  type RefPoint,
} from '../../views/repository-pages.ts';
import {
  BlobPage,
  CommitPage,
  CommitsPage,
  ProjectPage,
  RefsPage,
  TreePage,
  type BlobBody,
} from '../../presenters/html/repository.tsx';
import { renderBlobMarkdown } from '../../presenters/html/markdown.ts';
import { highlightedRows } from '../../presenters/html/highlight.ts';
import { pageContext } from './web-session.ts';
import { doneNotice } from './form-errors.ts';
import { viewerStarred } from '../../views/project-views.ts';
import { readNotificationSetting } from '../../services/mail/notification-levels.ts';
import { canForkProject } from '../../policies/access.ts';
import { sendPage } from './render.ts';
import { securityHeaders } from './security-headers.ts';
import { canRequestProjectAccess } from '../../policies/access-requests.ts';
import { hasAccessRequest } from '../../views/access-request-views.ts';

/** The notices of a redirect back to the project page (`?done=`). */
const PROJECT_NOTICES: Record<string, string> = {
  forked: 'The project was successfully forked.',
  access_requested: 'Your request for access has been queued for review.',
  access_withdrawn: 'Your access request to the project has been withdrawn.',
};

/** The notices of a redirect after a commit from the web editor (`?done=`), in 8.13's words. */
const FILE_NOTICES: Record<string, string> = {
  created: 'The file has been successfully created.',
  committed: 'Your changes have been successfully committed.',
  deleted: 'The file has been successfully deleted.',
};

interface ProjectParams {
  namespace: string;
  project: string;
  '*'?: string;
  sha?: string;
}

const README_MAX_BYTES = 512 * 1024;
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
};

function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** A raw file is never a page of ours: sandboxed, never sniffed, and downloaded when a browser would render it. */
export const RAW_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";
const RENDERED_BY_BROWSERS = new Set(['html', 'htm', 'xhtml', 'svg', 'svgz', 'xml', 'xsl', 'xslt', 'pdf']);

export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Registers the project's pages; answers how the notes route reaches a commit (its comment form). */
export function registerProjectPages(web: FastifyInstance, deps: Deps): CommentTargets<string> {
  const load = (request: FastifyRequest): Promise<LoadedProject> => loadPageProject(deps, request);
  const head = (loaded: LoadedProject) => loadProjectHead(deps, loaded);
  /** Reads the page at the ref and path of the URL; 404 when they name nothing. */
  const atUrl = async <T,>(
    loaded: LoadedProject,
    request: FastifyRequest,
    use: (at: RefPoint) => Promise<T | undefined>,
  ): Promise<T> => {
    const rest = (request.params as ProjectParams)['*'] ?? '';
    const found = await atRefPath(deps, loaded, rest, use);
    if (found === undefined) throw notFound();
    return found;
  };
  const refs = (p: RefPoint) => ({ ref: p.ref, branches: p.branches, tags: p.tags });
  /** The directory's README as 8.13 showed it below a listing: Markdown rendered, plain text as is. */
  const readmeOf = async (loaded: LoadedProject, at: RefPoint, entries: TreeEntry[]) => {
    const readmeEntry = findReadme(entries);
    if (!readmeEntry) return undefined;
    const markdown = /\.(md|markdown|mkd)$/i.test(readmeEntry.path);
    const projectPath = `/${loaded.namespace.path}/${loaded.project.path}`;
    const filePath = at.path === '' ? readmeEntry.path : `${at.path}/${readmeEntry.path}`;
    const html = await renderBlobMarkdown(
      `${readmeEntry.id}:${markdown ? 'md' : 'txt'}`,
      { projectPath, ref: at.ref, dir: at.path },
      async () => {
        const text = await smallFileText(at, filePath, README_MAX_BYTES);
        // A plain-text README is shown as it is, escaped.
        return text === undefined || markdown ? text : `~~~\n${text.replace(/~~~/g, '~ ~ ~')}\n~~~\n`;
      },
    );
    return { name: readmeEntry.path, html };
  };

  web.get('/:namespace/:project', async (request, reply) => {
    const loaded = await load(request);
    const [project, home] = await Promise.all([
      head(loaded),
      atDefaultRef(deps, loaded, async (at) => {
        const listing = await directoryListing(at);
        const entries = listing?.entries ?? [];
        return { at, listing, entries, readme: await readmeOf(loaded, at, entries) };
      }),
    ]);
    const viewer = request.viewer;
    const actions = viewer
      ? {
          starred: await viewerStarred(deps, viewer, loaded.project.id),
          canFork: canForkProject(viewer, loaded, loaded.access),
          notificationLevel: (
            await readNotificationSetting(deps, viewer, { type: 'Project', id: loaded.project.id })
          ).level,
          // A member never sees the button, so only a non-member's page reads their request.
          accessRequest: canRequestProjectAccess(viewer, loaded, loaded.access)
            ? {
                requested: await hasAccessRequest(
                  deps,
                  { type: 'Project', id: loaded.project.id },
                  viewer.id,
                ),
              }
            : undefined,
        }
      : undefined;
    const ctx = pageContext(deps, request, reply);
    const flash = doneNotice(request, {
      ...PROJECT_NOTICES,
      created: `Project '${loaded.project.name}' was successfully created.`,
    });
    if (!home) {
      return sendPage(reply, <ProjectPage ctx={ctx} project={project} viewer={actions} flash={flash} />);
    }
    return sendPage(
      reply,
      <ProjectPage
        ctx={ctx}
        project={project}
        tree={{ refs: refs(home.at), entries: home.entries, lastCommit: home.listing?.lastCommit }}
        readme={home.readme}
        viewer={actions}
        flash={flash}
      />,
    );
  });

  web.get('/:namespace/:project/refs/switch', async (request, reply) => {
    const loaded = await load(request);
    const params = requestParams(request);
    const ref = optionalString(params, 'ref');
    if (!ref) throw paramInvalid('ref');
    const destination = optionalString(params, 'destination');
    const kind = destination === 'blob' || destination === 'commits' ? destination : 'tree';
    const path = optionalString(params, 'path') ?? '';
    return reply.redirect(refPath(projectFullPath(loaded), kind, ref, path), 302);
  });

  web.get('/:namespace/:project/tree/*', async (request, reply) => {
    const loaded = await load(request);
    const [project, { at, listing, readme }] = await Promise.all([
      head(loaded),
      atUrl(loaded, request, async (at) => {
        const listing = await directoryListing(at);
        if (listing) return { at, listing, readme: await readmeOf(loaded, at, listing.entries) };
        return (await objectTypeAt(at)) === 'blob'
          ? { at, listing: undefined, readme: undefined }
          : undefined;
      }),
    ]);
    // GitLab's tree page of a file sends its reader to the file's blob page.
    if (!listing) return reply.redirect(refPath(project.path_with_namespace, 'blob', at.ref, at.path), 302);
    return sendPage(
      reply,
      <TreePage
        ctx={pageContext(deps, request, reply)}
        project={project}
        refs={refs(at)}
        path={at.path}
        entries={listing.entries}
        lastCommit={listing.lastCommit}
        readme={readme}
        flash={doneNotice(request, FILE_NOTICES)}
      />,
    );
  });

  web.get('/:namespace/:project/blob/*', async (request, reply) => {
    const loaded = await load(request);
    const [project, found] = await Promise.all([
      head(loaded),
      atUrl(loaded, request, async (at) => {
        const file = at.path === '' ? undefined : await blobView(at);
        if (file) return { at, file };
        return (await objectTypeAt(at)) === 'tree' ? { at, file: undefined } : undefined;
      }),
    ]);
    const { at, file } = found;
    // GitLab's blob page of a directory sends its reader to the directory's tree.
    if (!file) return reply.redirect(refPath(project.path_with_namespace, 'tree', at.ref, at.path), 302);
    const extension = extensionOf(at.path);
    let body: BlobBody;
    if (IMAGE_TYPES[extension] && file.kind !== 'too-large') body = { kind: 'image' };
    else if (file.kind !== 'text') body = { kind: file.kind };
    else if (
      /^(md|markdown|mkd)$/.test(extension) &&
      optionalString(requestParams(request), 'viewer') !== 'source'
    ) {
      const dir = at.path.includes('/') ? at.path.slice(0, at.path.lastIndexOf('/')) : '';
      const html = await renderBlobMarkdown(
        file.id,
        { projectPath: `/${project.path_with_namespace}`, ref: at.ref, dir },
        async () => file.content,
      );
      body = html ? { kind: 'markdown', html } : { kind: 'too-large' };
    } else body = { kind: 'code', rows: highlightedRows(file.id, at.path, file.content) };
    return sendPage(
      reply,
      <BlobPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        refs={refs(at)}
        path={at.path}
        size={file.size}
        body={body}
        flash={doneNotice(request, FILE_NOTICES)}
      />,
    );
  });

  web.get('/:namespace/:project/raw/*', async (request, reply) => {
    const loaded = await load(request);
    const { at, file } = await atUrl(loaded, request, async (at) => {
      const file = at.path === '' ? undefined : await rawFile(at);
      return file && { at, file };
    });
    const name = at.path.slice(at.path.lastIndexOf('/') + 1);
    const extension = extensionOf(at.path);
    securityHeaders(reply, RAW_CSP);
    reply.header('content-length', String(file.size));
    if (IMAGE_TYPES[extension]) {
      reply.type(IMAGE_TYPES[extension]).header('content-disposition', contentDisposition('inline', name));
    } else if (file.binary) {
      reply
        .type('application/octet-stream')
        .header('content-disposition', contentDisposition('attachment', name));
    } else {
      reply.type('text/plain; charset=utf-8');
      if (RENDERED_BY_BROWSERS.has(extension)) {
        reply.header('content-disposition', contentDisposition('attachment', name));
      }
    }
    return reply.send(file.stream);
  });

  const commits = async (request: FastifyRequest, reply: FastifyReply, rest: string | undefined) => {
    const loaded = await load(request);
    const page = optionalInteger(requestParams(request), 'page') ?? 1;
    if (page < 1 || page > 100_000) throw paramInvalid('page');
    const [project, found] = await Promise.all([
      head(loaded),
      atRefPath(deps, loaded, rest ?? loaded.project.default_branch ?? 'master', async (at) => ({
        at,
        history: await commitHistory(at, page),
      })),
    ]);
    // A ref or path that is not there: the page of the default branch, with no commits.
    return sendPage(
      reply,
      <CommitsPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        refs={found ? refs(found.at) : { ref: project.default_branch, branches: [], tags: [] }}
        path={found?.at.path ?? ''}
        commits={found?.history.commits ?? []}
        page={found ? page : 1}
        hasNext={found?.history.hasNext ?? false}
      />,
    );
  };
  web.get('/:namespace/:project/commits', (request, reply) => commits(request, reply, undefined));
  web.get('/:namespace/:project/commits/*', (request, reply) =>
    commits(request, reply, (request.params as ProjectParams)['*']),
  );

  const showCommit = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    sha: string,
    options: { flash?: Flash; status?: number; comment?: string } = {},
  ) => {
    const [project, found] = await Promise.all([head(loaded), commitWithDiff(deps, loaded, sha)]);
    if (!found) throw notFound('Commit');
    const [pipeline, thread] = await Promise.all([
      canReadPipelines(loaded.access, loaded.project)
        ? newestPipelineOfCommit(deps, loaded, found.commit.id)
        : undefined,
      commitNoteThread(deps, loaded, found.commit),
    ]);
    return sendPage(
      reply,
      <CommitPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        commit={found.commit}
        diffs={found.diffs}
        overflow={found.overflow}
        pipeline={pipeline}
        notes={thread.notes}
        noteCounts={thread.counts}
        comment={options.comment}
        flash={options.flash}
      />,
      options.status,
    );
  };

  web.get('/:namespace/:project/commit/:sha', async (request, reply) => {
    const loaded = await load(request);
    const sha = (request.params as ProjectParams).sha ?? '';
    const raw = /^(.*)\.(diff|patch)$/.exec(sha);
    if (raw) {
      const stream = await commitPatch(deps, loaded, raw[1], raw[2] as 'diff' | 'patch');
      if (!stream) throw notFound('Commit');
      securityHeaders(reply, RAW_CSP);
      return reply.type('text/plain; charset=utf-8').send(stream);
    }
    return showCommit(request, reply, loaded, sha);
  });

  web.get('/:namespace/:project/tags', async (request, reply) => {
    const loaded = await load(request);
    const [project, tags] = await Promise.all([head(loaded), projectTags(deps, loaded)]);
    const withCommits = tags.flatMap((tag) => (tag.commit ? [{ name: tag.name, commit: tag.commit }] : []));
    return sendPage(
      reply,
      <RefsPage ctx={pageContext(deps, request, reply)} project={project} kind="tags" refs={withCommits} />,
    );
  });

  return {
    // A comment on a commit needs its code: a viewer who may not download it finds nothing (404).
    async project(request) {
      const loaded = await load(request);
      if (!canDownloadCode(loaded.access, loaded)) throw notFound();
      return loaded;
    },
    async find(request, reply, loaded, _viewer, sha) {
      const found = /^[0-9a-fA-F]{6,40}$/.test(sha) ? await findCommitId(deps, loaded, sha) : undefined;
      if (!found) throw notFound();
      const commented = await readCommentedCommit(found.repoPath, found.commitId);
      const id = commented.commit.id;
      return {
        url: `/${loaded.namespace.path}/${loaded.project.path}/commit/${id}`,
        noteable: async () => commitNoteable(deps, loaded, commented),
        showAgain: (flash, status, comment) =>
          showCommit(request, reply, loaded, id, { flash, status, comment }),
      };
    },
  };
}
