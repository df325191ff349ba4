// The trace renderer on its own (presenters/html/ansi.ts): everything escaped, colours as classes, the
// style carried from one piece to the next by its state, and a state from a browser never trusted.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { renderTrace } from '../../src/presenters/html/ansi.ts';

const ESC = '\x1b';
const html = (text: string, state?: string) => renderTrace(text, state).html.value;

it('escapes every character that means something in HTML', () => {
  assert.equal(
    html(`<a href="x" onclick='y'>&amp;</a>`),
    '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
  );
});

it('turns colours and styles into classes: 8, bright, 256 and 24-bit colours, bold, italic, underline', () => {
  assert.equal(
    html(`${ESC}[31mr${ESC}[91mR${ESC}[0m`),
    '<span class="term-fg-red">r</span><span class="term-fg-l-red">R</span>',
  );
  assert.equal(html(`${ESC}[38;5;196;48;5;21mx`), '<span class="xterm-fg-196 xterm-bg-21">x</span>');
  assert.equal(html(`${ESC}[38;2;255;0;0mx`), '<span class="xterm-fg-196">x</span>');
  assert.equal(
    html(`${ESC}[1;3;4mx${ESC}[22;23;24my`),
    '<span class="term-bold term-italic term-underline">x</span>y',
  );
  assert.equal(html(`${ESC}[42mx${ESC}[49my`), '<span class="term-bg-green">x</span>y');
});

it('drops other escape sequences and unprintable characters, and keeps what a carriage return left', () => {
  assert.equal(html(`a${ESC}[2K${ESC}[1Gb${ESC}]0;title\x07c${ESC}]8;;http://x${ESC}\\d\x00\x08e`), 'abcde');
  assert.equal(html('10%\r50%\r100%\r\n'), '100%\n');
  assert.equal(html(`${ESC}[31mred\rnow`), '<span class="term-fg-red">now</span>');
});

it('hands the style on to the next piece, and ignores a state that is not SGR parameters', () => {
  const first = renderTrace(`${ESC}[1;32mstart\n`);
  assert.equal(first.state, '1;38;5;2');
  assert.equal(html('more\n', first.state), '<span class="term-fg-green term-bold">more</span>\n');
  assert.equal(html('more', '1;"><script>'), 'more');
  assert.equal(html('more', '9'.repeat(65)), 'more');
  assert.equal(renderTrace(`${ESC}[0m`).state, '');
});
