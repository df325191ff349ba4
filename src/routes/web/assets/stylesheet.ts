// The one stylesheet of the pages, served from memory under a content-hashed URL (assets.ts). Kept in a
// module so the bundle and the tests read the same text without copying files around.
export const STYLESHEET = `
:root {
  --fg: #2e2e2e; --muted: #707070; --bg: #fff; --soft: #fafafa; --line: #e5e5e5;
  --link: #1b69b6; --accent: #fc6d26; --good: #137a3e; --bad: #b3261e;
  --mono: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
  --sans: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Roboto, sans-serif;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.5 var(--sans); color: var(--fg); background: var(--bg); }
a { color: var(--link); text-decoration: none; }
a:hover, a:focus { text-decoration: underline; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; z-index: 10; }
.navbar { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 16px; padding: 8px 16px;
  background: #2b2b3d; color: #fff; }
.navbar a, .navbar button.link { color: #fff; }
.navbar .brand { font-weight: 700; margin-right: auto; }
.navbar form { display: inline; margin: 0; }
button.link { background: none; border: 0; padding: 0; font: inherit; cursor: pointer; color: var(--link); }
main { max-width: 1100px; margin: 0 auto; padding: 16px; overflow-wrap: anywhere; }
h1 { font-size: 1.6em; margin: 8px 0 12px; } h2 { font-size: 1.3em; } h3 { font-size: 1.1em; }
.muted { color: var(--muted); }
.broadcast { padding: 8px 12px; text-align: center; background: #e75e40; color: #fff; }
.broadcast p { margin: 0; }
.flash { padding: 8px 12px; border-radius: 4px; margin: 0 0 12px; border: 1px solid; }
.flash.alert { background: #fbe5e1; border-color: #efb3a7; color: #8c2c1c; }
.flash.notice { background: #e6f4ea; border-color: #a8d5b5; color: #1f5f33; }
form.stack { display: grid; gap: 10px; max-width: 460px; }
form.stack label { font-weight: 600; display: grid; gap: 4px; }
form.stack label.check { display: block; font-weight: normal; }
form.stack > button { justify-self: start; }
form.stack.wide { max-width: none; }
/* A second form after a stacked one (Remove avatar under the profile's) stands apart from its submit. */
form.stack + form { margin-top: 24px; }
form.stack label .muted { font-weight: normal; }
textarea.editor { min-height: 24em; white-space: pre; overflow-wrap: normal; tab-size: 4; }
input[type=text], input[type=password], input[type=email], input[type=search], input[type=number],
input[type=url], input[type=date], select, textarea {
  font: inherit; padding: 6px 8px; border: 1px solid #c7c7c7; border-radius: 4px; width: 100%; background: #fff; }
textarea { min-height: 6em; font-family: var(--mono); }
.btn, button[type=submit] { display: inline-block; font: inherit; padding: 6px 14px; border-radius: 4px;
  border: 1px solid #c7c7c7; background: var(--soft); color: var(--fg); cursor: pointer; }
/* A button the script hides (an autosubmitting select's) stays hidden despite the rule above. */
button[hidden] { display: none; }
.btn-primary, button.btn-primary, button.primary { background: var(--good); border-color: #0f6633; color: #fff; }
.btn-danger, button.btn-danger { background: var(--bad); border-color: #8f1e18; color: #fff; }
.navbar button.link { background: none; border: 0; padding: 0; color: #fff; }
p a, span a { text-decoration: underline; }
.tabs { display: flex; flex-wrap: wrap; gap: 4px 16px; border-bottom: 1px solid var(--line); margin: 0 0 12px;
  padding: 0; list-style: none; }
.tabs a { display: inline-block; padding: 6px 2px; color: var(--fg); }
.tabs a[aria-current=page] { border-bottom: 2px solid var(--accent); font-weight: 600; }
ul.list { list-style: none; margin: 0; padding: 0; border: 1px solid var(--line); border-radius: 4px; }
ul.list > li { padding: 10px 12px; border-top: 1px solid var(--line); }
ul.list > li:first-child { border-top: 0; }
.row { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; justify-content: space-between; }
/* A state badge and the words about it, kept together (a .row would push them to opposite ends). */
.meta { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: baseline; margin: 0 0 8px; }
.avatar { display: inline-block; vertical-align: middle; border-radius: 50%; object-fit: cover; }
.identicon { text-align: center; color: #555; font-weight: 600; overflow: hidden; }
.avatar.s16 { width: 16px; height: 16px; line-height: 16px; font-size: 10px; }
.avatar.s24 { width: 24px; height: 24px; line-height: 24px; font-size: 13px; }
.avatar.s40 { width: 40px; height: 40px; line-height: 40px; font-size: 18px; }
.avatar.s90 { width: 90px; height: 90px; line-height: 90px; font-size: 40px; }
.identicon.bg0 { background: #ffebee; } .identicon.bg1 { background: #f3e5f5; }
.identicon.bg2 { background: #e8eaf6; } .identicon.bg3 { background: #e3f2fd; }
.identicon.bg4 { background: #e0f2f1; } .identicon.bg5 { background: #fbe9e7; }
.identicon.bg6 { background: #eeeeee; }
.badges { display: inline-flex; flex-wrap: wrap; gap: 4px; }
.badge { display: inline-block; font-size: .8em; padding: 0 6px; border-radius: 8px; background: #eee;
  color: #444; border: 1px solid #ddd; }
.pagination { display: flex; gap: 12px; margin: 12px 0; }
.searchbar { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 12px; align-items: end; }
.searchbar label { display: grid; gap: 2px; font-weight: 600; }
.searchbar input[type=search] { width: 16em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
.table-wrap { overflow-x: auto; }
/* A narrow window scrolls the table rather than breaking its words mid-word. */
.keep-words th, .keep-words td { white-space: nowrap; }
form.inline { display: inline-block; margin: 0 4px 4px 0; }
form.template-picker { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 0 0 12px; }
a.btn { text-decoration: none; }
details.file-delete { padding: 6px 10px; border-bottom: 1px solid var(--line); }
.actions { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 0 0 8px; }
.actions form.inline { margin: 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 8px 0; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
code, pre, .mono { font-family: var(--mono); font-size: 13px; }
pre { overflow-x: auto; background: var(--soft); padding: 8px; border: 1px solid var(--line); border-radius: 4px; }
.clone { display: grid; grid-template-columns: auto minmax(0, 1fr) auto; gap: 8px; align-items: center;
  margin: 8px 0; max-width: 60em; }
.clone input { font-family: var(--mono); min-width: 0; }
.file { border: 1px solid var(--line); border-radius: 4px; margin: 12px 0; }
.file-head { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 8px; padding: 6px 10px;
  background: var(--soft); border-bottom: 1px solid var(--line); }
.code { overflow-x: auto; }
.code table { font-family: var(--mono); font-size: 13px; width: auto; min-width: 100%; }
.code td { border: 0; padding: 0 10px; white-space: pre; }
.code td.ln { text-align: right; color: var(--muted); user-select: none; width: 1%; }
.code td.ln a { color: var(--muted); }
.code tr:target td, .code tr:target td.ln a { background: #fff8c5; }
.diff .add td.c { background: #e6ffec; } .diff .del td.c { background: #ffebe9; } .diff .hunk td { background: #f1f8ff; color: var(--muted); }
.md img { max-width: 100%; }
.md table { width: auto; }
.md th, .md td { border: 1px solid var(--line); }
.md ul.contains-task-list { list-style: none; padding-left: 1.2em; }
/* GitLab references: a label as its coloured chip, a link to an issue, MR, user or commit. */
.md .gfm { text-decoration: underline; }
.color-label { display: inline-flex; align-items: center; gap: 4px; font-size: .85em; padding: 0 6px;
  border: 1px solid var(--line); border-radius: 8px; background: #f7f7f7; color: inherit; }
.label-swatch { flex: none; }
/* A system note (a change, not a comment): its icon, smaller and quieter text, no box. */
.note.system-note { border-left: 3px solid var(--line); padding-left: 8px; background: none; font-size: .9em; color: var(--muted); }
.note.system-note .md p { margin: 0; }
.system-note-icon { vertical-align: -3px; margin-right: 4px; }
.thumb-icon { vertical-align: -2px; }
.task-form .task-save[hidden] { display: none; }
.idiff.addition { background: #c7f0d2; } .idiff.deletion { background: #fac5cd; }
.blob-image img { max-width: 100%; display: block; margin: 12px auto; }
.hljs-keyword, .hljs-selector-tag, .hljs-built_in, .hljs-type { color: #8b1f8b; }
.hljs-string, .hljs-attr, .hljs-regexp, .hljs-addition { color: #2f6f2e; }
.hljs-number, .hljs-literal, .hljs-symbol { color: #7a5200; }
.hljs-comment, .hljs-quote { color: #5c6370; font-style: italic; }
.hljs-title, .hljs-section, .hljs-name { color: #2a5db0; }
.hljs-variable, .hljs-template-variable, .hljs-params { color: #7a5200; }
.hljs-meta, .hljs-deletion { color: #b3261e; }
form.stack fieldset label, label.check { display: block; font-weight: normal; }
fieldset { border: 1px solid var(--line); border-radius: 4px; }
details > summary { cursor: pointer; color: var(--link); }
@media (max-width: 600px) { main { padding: 8px; } .navbar { padding: 8px; } h1 { font-size: 1.3em; }
  /* On a phone each URL field takes a line of its own, the whole width, under its label and copy
     button (dense: the button goes back up beside the label). */
  .clone { grid-template-columns: minmax(0, 1fr) auto; grid-auto-flow: row dense; row-gap: 4px; }
  .clone input { grid-column: 1 / -1; font-size: 12px; }
  .clone label { grid-column: 1; }
  .clone button { grid-column: 2; } }
/* Dashboards: the selected one of a pair of filter buttons ("Assigned to me" / "Created by me"). */
.btn[aria-current=true] { background: #e8eef9; border-color: var(--link); font-weight: 600; }
/* Links at the end of a heading row, kept together (the row itself spreads its children apart). */
.head-links { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: baseline; }
/* The header's links sit together (the row's spreading put wide gaps between them on a phone). */
.navbar nav.row { justify-content: flex-end; gap: 4px 14px; }
@media (max-width: 600px) { .navbar nav.row { justify-content: flex-start; } }
`;
