// GET …/repository/archive[.format]: `git archive` of a commit piped to the client as git writes it.
// Formats and names as GitLab's: zip, tar, tar.bz2 (tbz, tbz2, tb2, bz2), anything else tar.gz; the file
// is `<project>-<ref>-<sha>.<ext>` with the same name as its top directory.
import type { Readable } from 'node:stream';
import type { Deps } from '../deps.ts';
import { archiveStream, type ArchiveFormat } from '../git/archive.ts';
import { treeAtPath } from '../git/trees.ts';
import { notFound } from '../errors.ts';
import { defaultRef, requireCommitId } from './repository-access.ts';
import type { ProjectRecord } from '../db/types.ts';

export const ARCHIVE_FORMATS = ['zip', 'tar', 'tar.gz', 'tgz', 'gz', 'tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'];

function archiveFormat(requested: string | undefined): ArchiveFormat {
  switch (requested?.toLowerCase()) {
    case 'zip':
      return 'zip';
    case 'tar':
      return 'tar';
    case 'tar.bz2':
    case 'tbz':
    case 'tbz2':
    case 'tb2':
    case 'bz2':
      return 'tar.bz2';
    default:
      return 'tar.gz';
  }
}

export async function repositoryArchive(
  deps: Deps,
  record: ProjectRecord,
  options: { sha?: string; format?: string; path?: string },
): Promise<{ filename: string; stream: Readable }> {
  const ref = options.sha ?? defaultRef(record);
  const { repoPath, commitId } = await requireCommitId(deps, record, ref, 'File');
  const format = archiveFormat(options.format);
  // The name goes into a header: slashes, quotes and anything outside printable ASCII become dashes.
  const safe = (text: string) => text.replace(/[^\x20-\x7e]|[/\\"]/g, '-');
  const path = options.path?.replace(/^\/+|\/+$/g, '');
  let name = `${record.project.path}-${safe(ref)}-${commitId}`;
  if (path) {
    // GitLab's name for a directory's archive: the path, dashed, after the sha.
    if (!(await treeAtPath(repoPath, commitId, path))) throw notFound('File');
    name = `${name}-${safe(path)}`;
  }
  return { filename: `${name}.${format}`, stream: archiveStream(repoPath, commitId, name, format, path) };
}
