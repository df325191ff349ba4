// Build traces as HTML: the terminal's colours and styles become CSS classes (the CSP allows no inline
// style), every character of the trace is escaped (a trace is whatever a job printed), every other escape
// sequence (cursor moves, erase-line, titles, hyperlinks) is dropped, and a carriage return keeps only what
// was written after it on its line, as a terminal shows a progress bar.
//
// A trace is shown in pieces (the page's tail, then what each poll adds), so the style in force where a
// piece ends is handed back as `state`, the SGR parameters that recreate it ("1;31"), and passed in with
// the next piece (GitLab 8.13's Ci::Ansi2html did the same with a state token). The state comes back from
// the browser, so it is read as digits and semicolons only; anything else starts unstyled.
import { trustedHtml, type TrustedHtml } from './raw-html.tsx';

const COLOURS = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

interface Style {
  /** 0–7 normal, 8–15 bright, 16–255 the xterm palette; null: the default. */
  fg: number | null;
  bg: number | null;
  bold: boolean;
  italic: boolean;
  underline: boolean;
}

const plain = (): Style => ({ fg: null, bg: null, bold: false, italic: false, underline: false });

/** The nearest colour of xterm's 6×6×6 cube for a 24-bit one. */
function cubeIndex(r: number, g: number, b: number): number {
  const step = (v: number) => Math.round((Math.min(255, Math.max(0, v)) / 255) * 5);
  return 16 + 36 * step(r) + 6 * step(g) + step(b);
}

function applySgr(style: Style, params: number[]): void {
  if (params.length === 0) params = [0];
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    if (p === 0) Object.assign(style, plain());
    else if (p === 1) style.bold = true;
    else if (p === 3) style.italic = true;
    else if (p === 4) style.underline = true;
    else if (p === 22) style.bold = false;
    else if (p === 23) style.italic = false;
    else if (p === 24) style.underline = false;
    else if (p >= 30 && p <= 37) style.fg = p - 30;
    else if (p === 39) style.fg = null;
    else if (p >= 40 && p <= 47) style.bg = p - 40;
    else if (p === 49) style.bg = null;
    else if (p >= 90 && p <= 97) style.fg = p - 90 + 8;
    else if (p >= 100 && p <= 107) style.bg = p - 100 + 8;
    else if (p === 38 || p === 48) {
      let colour: number | undefined;
      if (params[i + 1] === 5 && params[i + 2] !== undefined) {
        colour = params[i + 2]! <= 255 ? params[i + 2] : undefined;
        i += 2;
      } else if (params[i + 1] === 2 && params[i + 4] !== undefined) {
        colour = cubeIndex(params[i + 2]!, params[i + 3]!, params[i + 4]!);
        i += 4;
      }
      if (colour !== undefined) style[p === 38 ? 'fg' : 'bg'] = colour;
    }
  }
}

function colourClass(kind: 'fg' | 'bg', colour: number): string {
  if (colour < 8) return `term-${kind}-${COLOURS[colour]}`;
  if (colour < 16) return `term-${kind}-l-${COLOURS[colour - 8]}`;
  return `xterm-${kind}-${colour}`;
}

function classesOf(style: Style): string {
  const classes: string[] = [];
  if (style.fg !== null) classes.push(colourClass('fg', style.fg));
  if (style.bg !== null) classes.push(colourClass('bg', style.bg));
  if (style.bold) classes.push('term-bold');
  if (style.italic) classes.push('term-italic');
  if (style.underline) classes.push('term-underline');
  return classes.join(' ');
}

function sgrOf(style: Style): string {
  const parts: number[] = [];
  if (style.bold) parts.push(1);
  if (style.italic) parts.push(3);
  if (style.underline) parts.push(4);
  if (style.fg !== null) parts.push(38, 5, style.fg);
  if (style.bg !== null) parts.push(48, 5, style.bg);
  return parts.join(';');
}

function sgrParams(text: string): number[] {
  return text === '' ? [] : text.split(';').map((part) => (part === '' ? 0 : Number(part)));
}

/** Reads a state handed back by a browser: SGR parameters only, else unstyled. */
function styleFromState(state: string): Style {
  const style = plain();
  if (/^[0-9;]{1,64}$/.test(state)) applySgr(style, sgrParams(state));
  return style;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return /[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : text;
}

// CSI sequences (SGR among them), OSC strings (titles, hyperlinks) ended by BEL or ST, other two-byte
// escapes, and the control characters a terminal does not print (tab, newline and CR are handled apart).
const TOKEN =
  // eslint-disable-next-line no-control-regex
  /\x1b\[([0-9;:?<=>]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]?|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;
// eslint-disable-next-line no-control-regex
const ANY_TOKEN = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

/** One line (no newline in it) as HTML, styles moving `style`; only `emit` parts produce output. */
function renderSegment(text: string, style: Style, emit: boolean, out: string[]): void {
  let classes = classesOf(style);
  const piece = (part: string) => {
    const escaped = escapeHtml(part);
    out.push(classes ? `<span class="${classes}">${escaped}</span>` : escaped);
  };
  // Most lines carry no escape sequence at all.
  if (!ANY_TOKEN.test(text)) {
    if (emit && text !== '') piece(text);
    return;
  }
  let last = 0;
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    if (emit && match.index > last) piece(text.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[2] === 'm' && /^[0-9;]*$/.test(match[1]!)) {
      applySgr(style, sgrParams(match[1]!));
      classes = classesOf(style);
    }
  }
  if (emit && text.length > last) piece(text.slice(last));
}

export interface RenderedTrace {
  html: TrustedHtml;
  /** The style where the text ends, to pass with the text that follows it. */
  state: string;
}

/** Renders a piece of trace (best cut after a newline) that follows a piece which ended in `state`. */
export function renderTrace(text: string, state = ''): RenderedTrace {
  const style = styleFromState(state);
  const out: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (index > 0) out.push('\n');
    // What a carriage return overwrote is not shown, but its colours still count.
    const trimmed = line.replace(/\r+$/, '');
    const cut = trimmed.lastIndexOf('\r');
    if (cut >= 0) renderSegment(trimmed.slice(0, cut), style, false, out);
    renderSegment(cut >= 0 ? trimmed.slice(cut + 1) : trimmed, style, true, out);
  });
  return { html: trustedHtml(out.join('')), state: sgrOf(style) };
}

/** The stylesheet of trace colours: GitLab's term-* names for the 16 colours, xterm-* for the palette. */
export function traceColourRules(): string {
  const basic = ['#000', '#e05252', '#5ec25e', '#d6b23a', '#5c8dd6', '#c26ec2', '#4cb8c4', '#ddd'];
  const bright = ['#707070', '#ff7b7b', '#8ee68e', '#f5d96b', '#8ab4f8', '#e59ae5', '#7fe0ea', '#fff'];
  const rules: string[] = [];
  const palette = (index: number): string => {
    if (index < 8) return basic[index]!;
    if (index < 16) return bright[index - 8]!;
    if (index < 232) {
      const levels = [0, 95, 135, 175, 215, 255];
      const n = index - 16;
      const hex = (v: number) => v.toString(16).padStart(2, '0');
      return `#${hex(levels[Math.floor(n / 36)]!)}${hex(levels[Math.floor(n / 6) % 6]!)}${hex(levels[n % 6]!)}`;
    }
    const grey = (8 + (index - 232) * 10).toString(16).padStart(2, '0');
    return `#${grey}${grey}${grey}`;
  };
  for (let i = 0; i < 256; i++) {
    rules.push(`.${colourClass('fg', i)}{color:${palette(i)}}`);
    rules.push(`.${colourClass('bg', i)}{background:${palette(i)}}`);
  }
  rules.push(
    '.term-bold{font-weight:700}.term-italic{font-style:italic}.term-underline{text-decoration:underline}',
  );
  return rules.join('\n');
}
