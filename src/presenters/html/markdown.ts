// READMEs as HTML: markdown-it with raw HTML off (a `<script>` in a README is shown as text), its link
// check on (no `javascript:`, `vbscript:`, `file:` or non-image `data:` URLs), linkify for bare URLs,
// tables and strikethrough built in, task lists as disabled checkboxes, fenced code highlighted, and
// GitLab's inline diff (`{+added+}`, `{-removed-}`, which title-change notes use) as marked spans.
// Relative links and images resolve to the same ref (blob and raw URLs), external links get
// rel="nofollow noreferrer noopener". Cached by blob id and base, since neither changes.
import type MarkdownIt from 'markdown-it';
import { BoundedMap } from '../../lib/bounded-map.ts';
import { lazy } from '../../lib/lazy.ts';
import { highlightFence } from './highlight.ts';
import { trustedHtml, type TrustedHtml } from './raw-html.tsx';
import { encodePath } from '../../domain/paths.ts';
import { referenceKey, referenceRuns, referencesInText } from '../../lib/gfm-references.ts';
import type { ResolvedReference } from '../../views/reference-views.ts';

/** Where a wiki page's links resolve: gollum's `[[Page]]` and relative links name wiki pages. */
export interface WikiMarkdownBase {
  /** `/<namespace>/<project>/wikis` */
  wikiPath: string;
  /** The rendered page's slug (`dir/Page`), against which `./x` and `x.md` links resolve. */
  slug: string;
}

export interface MarkdownBase {
  /** `/<namespace>/<project>` */
  projectPath: string;
  ref: string;
  /** The directory of the rendered file, '' at the root. */
  dir: string;
}

/** Loaded by the first README rendered: most processes never render one, and it costs each start. */
const loadMarkdownIt = lazy<typeof MarkdownIt>('markdown-it');
let configured: MarkdownIt | undefined;

function markdownIt(): MarkdownIt {
  if (configured) return configured;
  const MarkdownItClass = loadMarkdownIt();
  configured = new MarkdownItClass({
    html: false,
    linkify: true,
    typographer: false,
    highlight: highlightFence,
  });
  configured.core.ruler.push('labrador_links_and_tasks', linksAndTasks);
  configured.inline.ruler.before('emphasis', 'labrador_inline_diff', inlineDiff);
  configured.core.ruler.push('labrador_references', linkReferences);
  configured.inline.ruler.before('link', 'labrador_gollum_link', gollumLink);
  return configured;
}

function resolveRelative(base: MarkdownBase, kind: 'blob' | 'raw', target: string): string {
  const hash = target.indexOf('#');
  const fragment = hash >= 0 ? target.slice(hash) : '';
  const pathPart = hash >= 0 ? target.slice(0, hash) : target;
  const segments = base.dir === '' ? [] : base.dir.split('/');
  for (const segment of decodeURI(pathPart).split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `${base.projectPath}/${kind}/${encodePath(base.ref)}/${encodePath(segments.join('/'))}${fragment}`;
}

function isRelative(url: string): boolean {
  return url !== '' && !url.startsWith('#') && !url.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(url);
}

/** Relative links and images resolved to the ref, external links marked, task list items as checkboxes. */
const linksAndTasks: Parameters<MarkdownIt['core']['ruler']['push']>[1] = (state) => {
  const base = (state.env as RenderEnv).base;
  const wiki = (state.env as RenderEnv).wiki;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    for (const token of block.children) {
      if (token.type === 'link_open') {
        const href = token.attrGet('href') ?? '';
        if (wiki && isRelative(href)) {
          try {
            token.attrSet('href', resolveWikiLink(wiki, href));
          } catch {
            token.attrSet('href', '#');
          }
        } else if (base && isRelative(href)) {
          try {
            token.attrSet('href', resolveRelative(base, 'blob', href));
          } catch {
            token.attrSet('href', '#');
          }
        } else if (/^https?:/i.test(href)) {
          token.attrSet('rel', 'nofollow noreferrer noopener');
        }
      } else if (token.type === 'image') {
        const src = token.attrGet('src') ?? '';
        if (base && isRelative(src)) {
          try {
            token.attrSet('src', resolveRelative(base, 'raw', src));
          } catch {
            token.attrSet('src', '');
          }
        }
      }
    }
  }
  // Task list items: `[ ]` / `[x]` at the start of a list item's first paragraph.
  const tokens = state.tokens;
  const tasksEnabled = (state.env as RenderEnv).tasks === true;
  let taskIndex = 0;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i];
    if (
      inline.type !== 'inline' ||
      tokens[i - 1].type !== 'paragraph_open' ||
      tokens[i - 2].type !== 'list_item_open'
    ) {
      continue;
    }
    const match = /^\[([ xX])\] /.exec(inline.content);
    const first = inline.children?.[0];
    if (!match || !first || first.type !== 'text' || !first.content.startsWith(match[0])) continue;
    first.content = first.content.slice(match[0].length);
    const box = new state.Token('html_inline', '', 0);
    const checked = match[1] === ' ' ? '' : ' checked';
    // On a page where the reader may tick them, each box names its position (the form posts it).
    box.content = tasksEnabled
      ? `<input type="checkbox" class="task-list-item-checkbox" name="task[]" value="${taskIndex}"${checked} aria-label="task ${taskIndex + 1}"> `
      : `<input type="checkbox" class="task-list-item-checkbox" disabled${checked} aria-label="task"> `;
    taskIndex++;
    inline.children!.unshift(box);
    tokens[i - 2].attrJoin('class', 'task-list-item');
    // The enclosing list.
    for (let j = i - 3; j >= 0; j--) {
      if (tokens[j].type === 'bullet_list_open' || tokens[j].type === 'ordered_list_open') {
        if (tokens[j].level === tokens[i - 2].level - 1) {
          if (!(tokens[j].attrGet('class') ?? '').includes('contains-task-list'))
            tokens[j].attrJoin('class', 'contains-task-list');
          break;
        }
      }
    }
  }
};

/** What a render is given besides the text: a README's base, a page's resolved references, live tasks. */
interface RenderEnv {
  base?: MarkdownBase;
  references?: ReadonlyMap<string, ResolvedReference>;
  tasks?: boolean;
  /** A wiki page's base: its relative and `[[Page]]` links lead to pages of the wiki. */
  wiki?: WikiMarkdownBase;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
const HEX_COLOR = /^#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?$/;

/**
 * A resolved reference as 8.13's filters wrote it: a link with the class `gfm gfm-<kind>` and the
 * target's title; a label as its coloured chip (the colour drawn by an SVG swatch, which the strict
 * style policy allows where a style attribute would be refused).
 */
function referenceHtml(resolved: ResolvedReference, written: string): string {
  const className = `gfm has-tooltip gfm-${resolved.kind === 'group' || resolved.kind === 'all' || resolved.kind === 'user' ? 'project_member' : resolved.kind}`;
  const open = (title: string) =>
    `<a href="${escapeHtml(resolved.url)}"${title ? ` title="${escapeHtml(title)}"` : ''} class="${className}" data-reference-type="${resolved.kind}">`;
  if (resolved.kind === 'label') {
    const color = HEX_COLOR.test(resolved.color) ? resolved.color : '#428bca';
    return (
      `${open(resolved.title)}<span class="label color-label">` +
      `<svg class="label-swatch" width="10" height="10" viewBox="0 0 10 10" aria-hidden="true"><rect width="10" height="10" rx="2" fill="${color}"/></svg>` +
      `${escapeHtml(resolved.name)}</span></a>`
    );
  }
  return `${open(resolved.title)}${escapeHtml(resolved.text ?? written)}</a>`;
}

/** References in text outside code and links, replaced by links to what they name (when the reader may see it). */
const linkReferences: Parameters<MarkdownIt['core']['ruler']['push']>[1] = (state) => {
  const references = (state.env as RenderEnv).references;
  if (!references || references.size === 0) return;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const replacements: Array<{ position: number; tokens: typeof block.children }> = [];
    referenceRuns(block.children, (token, position) => {
      const text = token.content;
      const pieces: typeof block.children = [];
      let at = 0;
      for (const match of referencesInText(text)) {
        const resolved = references.get(referenceKey(match.reference));
        if (!resolved) continue;
        if (match.index > at) {
          const plain = new state.Token('text', '', 0);
          plain.content = text.slice(at, match.index);
          pieces.push(plain);
        }
        const link = new state.Token('html_inline', '', 0);
        link.content = referenceHtml(resolved, match.text);
        pieces.push(link);
        at = match.index + match.text.length;
      }
      if (pieces.length === 0) return;
      if (at < text.length) {
        const rest = new state.Token('text', '', 0);
        rest.content = text.slice(at);
        pieces.push(rest);
      }
      replacements.push({ position, tokens: pieces });
    });
    for (const { position, tokens } of replacements.reverse()) block.children.splice(position, 1, ...tokens);
  }
};

/**
 * GitLab 8.13's WikiLinkFilter: a link with a file extension or starting with `.` is taken relative to
 * the page's slug; then any relative link is a path under the wiki.
 */
function resolveWikiLink(wiki: WikiMarkdownBase, href: string): string {
  const hash = href.indexOf('#');
  const fragment = hash >= 0 ? href.slice(hash) : '';
  let target = hash >= 0 ? href.slice(0, hash) : href;
  if (target === '') return href;
  const last = target.slice(target.lastIndexOf('/') + 1);
  if (target.startsWith('.') || /\.[^.]+$/.test(last)) {
    const segments = wiki.slug.split('/').slice(0, -1);
    for (const segment of target.split('/')) {
      if (segment === '' || segment === '.') continue;
      if (segment === '..') segments.pop();
      else segments.push(segment);
    }
    target = segments.join('/');
  }
  return `${wiki.wikiPath}/${target.replace(/^\/+/, '')}${fragment}`;
}

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** gollum's `[[Page]]` and `[[Link text|Page]]`: a link to the wiki page of that name (spaces as dashes). */
const gollumLink: Parameters<MarkdownIt['inline']['ruler']['before']>[2] = (state, silent) => {
  const start = state.pos;
  const wiki = (state.env as { wiki?: WikiMarkdownBase }).wiki;
  if (
    !wiki ||
    state.src.charCodeAt(start) !== OPEN_BRACKET ||
    state.src.charCodeAt(start + 1) !== OPEN_BRACKET
  )
    return false;
  const close = state.src.indexOf(']]', start + 2);
  if (close === -1 || close > state.posMax) return false;
  const inner = state.src.slice(start + 2, close);
  if (inner.trim() === '' || inner.includes('\n') || inner.includes('[')) return false;
  if (state.src.charCodeAt(close + 2) === CLOSE_BRACKET) return false;
  if (!silent) {
    const bar = inner.indexOf('|');
    const text = (bar >= 0 ? inner.slice(0, bar) : inner).trim();
    const page = (bar >= 0 ? inner.slice(bar + 1) : inner).trim();
    const slug = page.replace(/\s/g, '-').replace(/[<>+]/g, '-');
    const hash = slug.indexOf('#');
    const path = hash >= 0 ? slug.slice(0, hash) : slug;
    const fragment = hash >= 0 ? slug.slice(hash) : '';
    const href = `${wiki.wikiPath}/${path.split('/').map(encodeURIComponent).join('/')}${fragment}`;
    state.push('link_open', 'a', 1).attrSet('href', href);
    state.push('text', '', 0).content = text;
    state.push('link_close', 'a', -1);
  }
  state.pos = close + 2;
  return true;
};

const OPEN_BRACE = 0x7b;
const DIFF_MARKERS: Record<number, string> = { 0x2b: 'idiff addition', 0x2d: 'idiff deletion' };

/** `{+text+}` or `{-text-}` on one line, its text parsed as inline Markdown inside a marked span. */
const inlineDiff: Parameters<MarkdownIt['inline']['ruler']['before']>[2] = (state, silent) => {
  const start = state.pos;
  const marker = state.src.charCodeAt(start + 1);
  const className = DIFF_MARKERS[marker];
  if (state.src.charCodeAt(start) !== OPEN_BRACE || className === undefined) return false;
  const close = state.src.indexOf(`${String.fromCharCode(marker)}}`, start + 2);
  if (close <= start + 2 || close > state.posMax || state.src.slice(start, close).includes('\n'))
    return false;
  if (!silent) {
    state.push('inline_diff_open', 'span', 1).attrSet('class', className);
    const end = state.posMax;
    state.pos = start + 2;
    state.posMax = close;
    state.md.inline.tokenize(state);
    state.posMax = end;
    state.push('inline_diff_close', 'span', -1);
  }
  state.pos = close + 2;
  return true;
};

/**
 * An issue's or merge request's description, or a comment, as HTML: the same safe renderer, relative
 * links left relative (8.13 resolved them against the project's default branch; we do not guess).
 */
export function renderCommentMarkdown(text: string, options: CommentRenderOptions = {}): TrustedHtml {
  return trustedHtml(
    markdownIt().render(text, { references: options.references, tasks: options.tasks } satisfies RenderEnv),
  );
}

export interface CommentRenderOptions {
  /** The page's references resolved for its reader (views/reference-views.ts); unresolved ones stay text. */
  references?: ReadonlyMap<string, ResolvedReference>;
  /** Task boxes the reader may tick (named `task[]` with their position), instead of disabled ones. */
  tasks?: boolean;
}

const cache = new BoundedMap<string, TrustedHtml>(200);

/**
 * A wiki page as HTML: Markdown with its links resolved to wiki pages; the markups Labrador does not
 * render (RDoc, AsciiDoc, Org) as their escaped text.
 */
export function renderWikiContent(format: string, text: string, wiki: WikiMarkdownBase): TrustedHtml {
  if (format !== 'markdown') return trustedHtml(`<pre>${markdownIt().utils.escapeHtml(text)}</pre>`);
  return trustedHtml(markdownIt().render(text, { wiki }));
}

/** Markdown as HTML. */
function renderMarkdown(text: string, base: MarkdownBase | undefined): TrustedHtml {
  return trustedHtml(markdownIt().render(text, { base } satisfies RenderEnv));
}

/**
 * A blob's Markdown as HTML, cached by blob id and base: a hit neither reads the blob nor renders it.
 * `load` gives the text, or undefined when it cannot be shown (too large).
 */
export async function renderBlobMarkdown(
  blobId: string,
  base: MarkdownBase,
  load: () => Promise<string | undefined>,
): Promise<TrustedHtml | null> {
  const key = `${blobId}\0${base.projectPath}\0${base.ref}\0${base.dir}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const text = await load();
  if (text === undefined) return null;
  const html = renderMarkdown(text, base);
  cache.set(key, html);
  return html;
}
