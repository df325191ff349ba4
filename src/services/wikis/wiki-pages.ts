// Writing wiki pages (GitLab 8.13's WikiPages::CreateService and UpdateService through gollum, and later
// GitLab's DestroyService): each write is one commit on the wiki's master, made without a work tree
// (git/commit-writer.ts) and moved into place with compare-and-swap. A write that loses the race to
// another write (or a push) is made again on the new tip, so two people editing different pages both
// win; one editing a page that changed since its form was loaded loses with GitLab's message.
//
// A git commit cannot share a transaction with the database, so the hook deliveries (and the project's
// last activity) are recorded in one transaction right after the commit has moved master: a crash between
// the two leaves the page written and its hook unsent, never a hook for a page that was not written.
import type { Deps } from '../../deps.ts';
import { identPart, writeCommit, type TreeEdit } from '../../git/commit-writer.ts';
import { compareAndSwapRef } from '../../git/ref-writes.ts';
import { ensureBareRepository, repositoryPath } from '../../git/repository.ts';
import { isOverlongPath } from '../../git/name-limits.ts';
import { lastCommitIdForPath } from '../../git/commit-log.ts';
import {
  slugKey,
  WIKI_FORMAT_EXTENSIONS,
  WIKI_REF,
  wikiSlugOf,
  wikiTip,
  wikiTitleOf,
  wikiTree,
  readWikiText,
  type WikiFormat,
  type WikiPageFile,
  type WikiTree,
} from '../../git/wiki-pages.ts';
import { apiError, notFound, ValidationErrors } from '../../errors.ts';
import { BLANK_SHA } from '../../domain/types.ts';
import { enqueueProjectHooks } from '../hooks/hook-outbox.ts';
import { touchProjectActivity } from '../../db/repositories/events.ts';
import {
  presentWikiPageHookPayload,
  type WikiPageHookAction,
} from '../../presenters/hooks/wiki-page-payload.ts';
import { now } from '../../lib/clock.ts';
import type { ProjectRecord, UserRow } from '../../db/types.ts';

export interface WikiPageInput {
  title?: string;
  content?: string;
  format?: WikiFormat;
  /** The commit message; GitLab's `<username> created page: <title>` when absent or blank. */
  message?: string;
  /** The page's last commit as the editor's form saw it: the edit is refused when the page moved on. */
  lastCommitId?: string;
}

export interface WrittenWikiPage {
  slug: string;
  title: string;
  format: WikiFormat;
  content: string;
  commitId: string;
}

const WIKI_EDIT_CONFLICT =
  'Someone edited the page the same time you did. Please check out the page and make sure your changes will not unintentionally remove theirs.';
const DUPLICATE_PAGE = 'Duplicate page: A page with that title already exists';
const RETRIES = 5;

/** The project's wiki repository (`<project>.wiki.git` beside its own). */
export function wikiRepositoryPath(deps: Deps, record: ProjectRecord): string {
  return repositoryPath(deps.config.dataDir, record.namespace.path, record.project.path, 'wiki');
}

/** The wiki repository, made now if this is its first use. */
export async function ensureWikiRepository(deps: Deps, record: ProjectRecord): Promise<string> {
  const repoPath = wikiRepositoryPath(deps, record);
  await ensureBareRepository(deps.config.dataDir, repoPath);
  return repoPath;
}

const EMPTY_TREE: WikiTree = { commit: '', pages: [], bySlug: new Map(), files: new Map() };

/** A title as a slug gollum would write: segments trimmed, each a storable file name. */
function slugForTitle(errors: ValidationErrors, title: string | undefined): string | undefined {
  const segments = (title ?? '')
    .trim()
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .map((segment) => segment.trim());
  if (segments.join('') === '') {
    errors.add('title', "can't be blank");
    return undefined;
  }
  const bad = segments.some(
    (segment) =>
      segment === '' ||
      segment === '.' ||
      segment === '..' ||
      segment.startsWith('_') ||
      segment.toLowerCase() === '.git' ||
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u001f\u007f\\]/.test(segment),
  );
  const slug = wikiSlugOf(segments.join('/'));
  if (bad || isOverlongPath(`${slug}.asciidoc`)) {
    errors.add('title', 'is invalid');
    return undefined;
  }
  return slug;
}

function signature(actor: UserRow) {
  const who = { name: identPart(actor.name) || actor.username, email: identPart(actor.email) };
  return { author: who, committer: who };
}

function commitMessage(actor: UserRow, verb: string, title: string, message: string | undefined): string {
  return message !== undefined && message.trim() !== ''
    ? message
    : `${actor.username} ${verb} page: ${title}`;
}

interface Plan {
  edits: TreeEdit[];
  message: string;
  page: Omit<WrittenWikiPage, 'commitId'>;
}

/**
 * Makes the commit `plan` describes on the wiki's current tip and moves master to it, again on the new
 * tip when something else moved master meanwhile.
 */
async function commitToWiki(
  deps: Deps,
  record: ProjectRecord,
  actor: UserRow,
  plan: (tree: WikiTree, tip: string | null, repoPath: string) => Promise<Plan>,
): Promise<{ commitId: string; plan: Plan }> {
  const repoPath = await ensureWikiRepository(deps, record);
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    const tip = await wikiTip(repoPath);
    const tree = tip ? await wikiTree(repoPath, tip) : EMPTY_TREE;
    const planned = await plan(tree, tip, repoPath);
    const commitId = await writeCommit(repoPath, {
      parent: tip,
      edits: planned.edits,
      message: planned.message,
      ...signature(actor),
    });
    if (await compareAndSwapRef(repoPath, WIKI_REF, tip ?? BLANK_SHA, commitId)) {
      return { commitId, plan: planned };
    }
  }
  throw apiError(409, 'Could not update the wiki. Please refresh and try again.');
}

/** The hook deliveries and the project's activity, in one transaction once the commit is in place. */
async function announce(
  deps: Deps,
  record: ProjectRecord,
  actor: UserRow,
  page: WrittenWikiPage,
  message: string,
  action: WikiPageHookAction,
): Promise<void> {
  const payload = presentWikiPageHookPayload(
    { baseUrl: deps.config.externalUrl, sshBase: deps.config.ssh.cloneUrlBase, record, actor },
    { title: page.title, content: page.content, format: page.format, message, slug: page.slug },
    action,
  );
  await deps.db.kysely.transaction().execute(async (trx) => {
    await enqueueProjectHooks(trx, record.project.id, 'wiki_page_events', payload);
    await touchProjectActivity(trx, record.project.id, now());
  });
}

/** gollum's Wiki#normalize on every page it wrote: carriage returns (a browser's CRLF) dropped. */
function normalized(content: string): string {
  return content.replace(/\r/g, '');
}

function pageAt(tree: WikiTree, slug: string): WikiPageFile | undefined {
  return tree.bySlug.get(slugKey(slug));
}

export async function createWikiPage(
  deps: Deps,
  record: ProjectRecord,
  actor: UserRow,
  input: WikiPageInput,
): Promise<WrittenWikiPage> {
  const errors = new ValidationErrors();
  const slug = slugForTitle(errors, input.title);
  if ((input.content ?? '') === '') errors.add('content', "can't be blank");
  errors.throwIfAny();
  const format = input.format ?? 'markdown';
  const content = normalized(input.content!);
  const { commitId, plan } = await commitToWiki(deps, record, actor, async (tree) => {
    if (pageAt(tree, slug!)) {
      const duplicate = new ValidationErrors();
      duplicate.add('base', DUPLICATE_PAGE);
      duplicate.throwIfAny();
    }
    const title = wikiTitleOf(slug!);
    return {
      edits: [
        { action: 'write', path: `${slug}.${WIKI_FORMAT_EXTENSIONS[format]}`, content: Buffer.from(content) },
      ],
      message: commitMessage(actor, 'created', title, input.message),
      page: { slug: slug!, title, format, content },
    };
  });
  const written = { ...plan.page, commitId };
  await announce(deps, record, actor, written, plan.message, 'create');
  return written;
}

/**
 * A new version of the page `slug`: new content and format, and with a new title the file moves (a
 * rename). What is not given stays.
 */
export async function updateWikiPage(
  deps: Deps,
  record: ProjectRecord,
  actor: UserRow,
  slug: string,
  input: WikiPageInput,
): Promise<WrittenWikiPage> {
  const errors = new ValidationErrors();
  const newSlug = input.title === undefined ? undefined : slugForTitle(errors, input.title);
  if (input.content !== undefined && input.content === '') errors.add('content', "can't be blank");
  errors.throwIfAny();
  const { commitId, plan } = await commitToWiki(deps, record, actor, async (tree, tip, repoPath) => {
    const page = pageAt(tree, slug);
    if (!page || !tip) throw notFound('Wiki Page');
    if (input.lastCommitId !== undefined && input.lastCommitId !== '') {
      if ((await lastCommitIdForPath(repoPath, tip, page.path)) !== input.lastCommitId) {
        throw apiError(409, WIKI_EDIT_CONFLICT);
      }
    }
    const format = input.format ?? page.format;
    const target = newSlug ?? page.slug;
    const other = pageAt(tree, target);
    if (other && other.path !== page.path) {
      const duplicate = new ValidationErrors();
      duplicate.add('base', DUPLICATE_PAGE);
      duplicate.throwIfAny();
    }
    const text =
      input.content !== undefined ? normalized(input.content) : await readWikiText(repoPath, page.blobId);
    // The file keeps its extension unless the format changes.
    const extension =
      format === page.format ? page.path.slice(page.slug.length + 1) : WIKI_FORMAT_EXTENSIONS[format];
    const path = `${target}.${extension}`;
    const bytes = Buffer.from(text);
    const edits: TreeEdit[] =
      path === page.path
        ? [{ action: 'write', path, content: bytes }]
        : [{ action: 'move', from: page.path, path, content: bytes }];
    const title = wikiTitleOf(target);
    return {
      edits,
      message: commitMessage(actor, 'updated', title, input.message),
      page: { slug: target, title, format, content: text },
    };
  });
  const written = { ...plan.page, commitId };
  await announce(deps, record, actor, written, plan.message, 'update');
  return written;
}

export async function deleteWikiPage(
  deps: Deps,
  record: ProjectRecord,
  actor: UserRow,
  slug: string,
): Promise<void> {
  const { commitId, plan } = await commitToWiki(deps, record, actor, async (tree, _tip, repoPath) => {
    const page = pageAt(tree, slug);
    if (!page) throw notFound('Wiki Page');
    const title = wikiTitleOf(page.slug);
    const content = await readWikiText(repoPath, page.blobId);
    return {
      edits: [{ action: 'delete', path: page.path }],
      message: commitMessage(actor, 'deleted', title, undefined),
      page: { slug: page.slug, title, format: page.format, content },
    };
  });
  await announce(deps, record, actor, { ...plan.page, commitId }, plan.message, 'delete');
}
