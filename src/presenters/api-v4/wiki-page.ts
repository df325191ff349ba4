// v4's WikiPageBasic (format, slug, title) and WikiPage (with content, raw or rendered, and encoding).
import { renderWikiContent } from '../html/markdown.ts';
import type { WikiPageView } from '../../views/wiki-views.ts';

export function presentWikiPageBasicV4(page: WikiPageView) {
  return { format: page.format, slug: page.slug, title: page.title };
}

/** `renderHtml`: the content as HTML, its links under `wikiPath` (`/<namespace>/<project>/wikis`). */
export function presentWikiPageV4(
  page: WikiPageView,
  options: { renderHtml?: boolean; wikiPath?: string } = {},
) {
  const text = page.content ?? '';
  const content =
    options.renderHtml && options.wikiPath
      ? renderWikiContent(page.format, text, { wikiPath: options.wikiPath, slug: page.slug }).value
      : text;
  return { ...presentWikiPageBasicV4(page), content, encoding: 'UTF-8' };
}
