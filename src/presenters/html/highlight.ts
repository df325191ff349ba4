// Source code as HTML lines for blob pages: highlight.js (which escapes the text it marks up) for known
// languages, chosen by file name like GitLab's Rouge lexers rather than guessed, and plain escaped
// text otherwise. The rows of a blob page (line anchors and lines) are made once per blob and language and
// kept, since a blob never changes: a second view of a 2,000-line file renders none of them again.
import type { HLJSApi } from 'highlight.js';
import { BoundedMap } from '../../lib/bounded-map.ts';
import { lazy } from '../../lib/lazy.ts';
import { trustedHtml, type TrustedHtml } from './raw-html.tsx';

/** Beyond this, a file is shown unhighlighted (GitLab's "too large" blob viewer did the same). */
const HIGHLIGHT_MAX_BYTES = 512 * 1024;
const HIGHLIGHT_MAX_LINES = 5000;

const cache = new BoundedMap<string, TrustedHtml>(200);

/** Loaded by the first page that shows code: most processes never render one, and it costs each start. */
const hljs = lazy<HLJSApi>('highlight.js/lib/common');

const BY_NAME: Record<string, string> = {
  Dockerfile: 'dockerfile',
  Makefile: 'makefile',
  Gemfile: 'ruby',
  Rakefile: 'ruby',
  '.gitlab-ci.yml': 'yaml',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The highlight.js language for a file name, if any. */
function languageFor(fileName: string): string | undefined {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  if (BY_NAME[base]) return BY_NAME[base];
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const extension = base.slice(dot + 1).toLowerCase();
  return hljs().getLanguage(extension) ? extension : undefined;
}

/**
 * Cuts highlighted HTML at newlines into one fragment per line: spans open at a line's end are closed
 * there and reopened on the next line, so each line is balanced HTML.
 */
function splitHighlightedLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let current = '';
  const pattern = /<span[^>]*>|<\/span>|\n/g;
  let last = 0;
  for (let match = pattern.exec(html); match; match = pattern.exec(html)) {
    current += html.slice(last, match.index);
    last = pattern.lastIndex;
    const token = match[0];
    if (token === '\n') {
      lines.push(current + '</span>'.repeat(open.length));
      current = open.join('');
    } else if (token === '</span>') {
      open.pop();
      current += token;
    } else {
      open.push(token);
      current += token;
    }
  }
  lines.push(current + html.slice(last));
  return lines;
}

/**
 * A file's lines as the rows of a blob page's code table (`<tr id="L1">`, its number linking to `#L1`, then
 * the line), highlighted when its language is known and the file is not too large.
 */
export function highlightedRows(blobId: string, fileName: string, text: string): TrustedHtml {
  const language = languageFor(fileName);
  const key = `${blobId}\0${language ?? ''}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  let lines: string[];
  const small =
    body.length <= HIGHLIGHT_MAX_BYTES &&
    body.split('\n', HIGHLIGHT_MAX_LINES + 1).length <= HIGHLIGHT_MAX_LINES;
  if (language && small) {
    lines = splitHighlightedLines(hljs().highlight(body, { language, ignoreIllegals: true }).value);
  } else {
    lines = body.split('\n').map(escapeHtml);
  }
  const rows = lines.map(
    (line, i) =>
      `<tr id="L${i + 1}"><td class="ln"><a href="#L${i + 1}">${i + 1}</a></td><td class="c"><span>${line}</span></td></tr>`,
  );
  const result = trustedHtml(rows.join(''));
  cache.set(key, result);
  return result;
}

/** Highlighted code of a fenced block in Markdown ('' lets markdown-it escape it itself). */
export function highlightFence(code: string, language: string): string {
  if (!language || !hljs().getLanguage(language)) return '';
  return hljs().highlight(code, { language, ignoreIllegals: true }).value;
}
