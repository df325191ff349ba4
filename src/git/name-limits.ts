// How long a name given by a client may be before it reaches git or the file system. Past these, a
// read names nothing and a write is refused with GitLab's text for an invalid name; nothing gets near
// the kernel's limit on one argument (128 KiB, where spawn fails with E2BIG).

/** GitLab 8.13 kept ref names in 255-character columns: a longer new branch or tag is invalid. */
export const MAX_NEW_REF_NAME_LENGTH = 255;

/** A ref is a file, locked as `<name>.lock` while it moves: NAME_MAX less the 5 bytes of `.lock`. */
export const MAX_REF_COMPONENT_BYTES = 250;

/** PATH_MAX: no ref file, revision or path git could hold on disk is longer, so nothing longer exists. */
const MAX_NAME_BYTES = 4096;

/** NAME_MAX: a file name (one path component) longer than this cannot be checked out anywhere. */
const MAX_PATH_COMPONENT_BYTES = 255;

/** Whether `name` is longer than anything git could find under it. */
export function isOverlongName(name: string): boolean {
  // A character is at most 3 UTF-16 units' worth of UTF-8 bytes; count exactly only when it matters.
  return (
    name.length > MAX_NAME_BYTES ||
    (name.length * 3 > MAX_NAME_BYTES && Buffer.byteLength(name) > MAX_NAME_BYTES)
  );
}

/** Whether a file path is too long to write: past PATH_MAX, or with a component past NAME_MAX. */
export function isOverlongPath(path: string): boolean {
  return (
    isOverlongName(path) || path.split('/').some((part) => Buffer.byteLength(part) > MAX_PATH_COMPONENT_BYTES)
  );
}
