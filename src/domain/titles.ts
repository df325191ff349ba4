// What a title means, for every wire and page: a commit's title, a merge request's WIP prefix.

/** Commit#full_title (v4's title): the first line whole. */
export function commitFullTitle(message: string): string {
  return message.trim() === '' ? '--no commit message' : message.split('\n', 1)[0];
}

/** Commit#title: the first line, cut to 80 characters and an ellipsis when over 100. */
export function commitTitle(message: string): string {
  const full = commitFullTitle(message);
  const characters = [...full];
  return characters.length > 100 ? `${characters.slice(0, 80).join('')}…` : full;
}

/** MergeRequest::WIP_REGEX: the WIP prefixes of 8.13, with the blanks after them. */
const WIP = /^\s*(\[WIP\]\s*|WIP:\s*|WIP\s+)+\s*/i;

/** MergeRequest#work_in_progress?. */
export function isWorkInProgress(title: string): boolean {
  return WIP.test(title);
}

/** MergeRequest.wipless_title: the title without its WIP prefixes. */
export function wiplessTitle(title: string): string {
  return title.replace(WIP, '');
}
