// The words of GitLab 8.13's cross-reference notes (SystemNoteService.cross_reference): on the issue or
// merge request a text mentions, `Mentioned in <noun> <reference>`, the mentioner named as seen from the
// noted one's project (`issue #2`, `merge request group/project!3`, `commit <full sha>`).

export const CROSS_REFERENCE_PREFIX = 'Mentioned in ';

/** A mentioner's reference seen from another project: prefixed with its path when it is elsewhere. */
export function crossReferenceNote(
  mentioner: { kind: 'issue' | 'merge_request'; iid: number } | { kind: 'commit'; sha: string },
  mentionerPath: string,
  notedPath: string,
): string {
  const elsewhere = mentionerPath.toLowerCase() !== notedPath.toLowerCase();
  if (mentioner.kind === 'commit')
    return `${CROSS_REFERENCE_PREFIX}commit ${elsewhere ? `${mentionerPath}@` : ''}${mentioner.sha}`;
  const sigil = mentioner.kind === 'issue' ? '#' : '!';
  const noun = mentioner.kind === 'issue' ? 'issue' : 'merge request';
  return `${CROSS_REFERENCE_PREFIX}${noun} ${elsewhere ? mentionerPath : ''}${sigil}${mentioner.iid}`;
}
