// The one audited way raw HTML enters a page. Only three producers may feed it: the Markdown renderer
// (markdown-it with raw HTML off and links checked, presenters/html/markdown.ts), the highlighter
// (highlight.js, which escapes the source it marks up) and the trace renderer (presenters/html/ansi.ts,
// which escapes every character and adds only class-named spans). Everything else is escaped by Preact.
export function RawHtml(props: { html: TrustedHtml; class?: string }) {
  return <div class={props.class} dangerouslySetInnerHTML={{ __html: props.html.value }} />;
}

/** The rows of a table: a blob's highlighted lines with their anchors. */
export function RawRows(props: { html: TrustedHtml }) {
  return <tbody dangerouslySetInnerHTML={{ __html: props.html.value }} />;
}

/** A build's trace, preformatted. */
export function RawPre(props: { html: TrustedHtml; id: string; class?: string }) {
  return <pre id={props.id} class={props.class} dangerouslySetInnerHTML={{ __html: props.html.value }} />;
}

/** HTML produced by one of the trusted renderers; the brand keeps plain strings out of RawHtml. */
export interface TrustedHtml {
  readonly trusted: true;
  readonly value: string;
}

export function trustedHtml(value: string): TrustedHtml {
  return { trusted: true, value };
}
