// JUnit XML as GitLab's unit test reports read it: every <testcase> inside a <testsuite> (suites may
// nest, a file may hold several documents, as the runner's gzip of several report files does), its
// status from a <failure>, <error> or <skipped> child (else success), its name, classname, file and
// time (seconds). A file that is not well-formed XML is the suite's error, and its cases are dropped.
// A scanner of our own: tags, attributes, text, CDATA, comments and entities; no DTDs.

export type TestStatus = 'failed' | 'error' | 'success' | 'skipped';

export interface TestCase {
  status: TestStatus;
  name: string;
  classname: string;
  file: string | null;
  execution_time: number;
  /** The failure's or error's text (its message when it has none). */
  system_output: string | null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name] ?? whole;
  });
}

const TAG = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function attributesOf(text: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const match of text.matchAll(ATTRIBUTE)) result.set(match[1]!, decode(match[2] ?? match[3] ?? ''));
  return result;
}

interface OpenCase {
  attributes: Map<string, string>;
  status: TestStatus;
  output: string | null;
  /** The failure or error element being read, whose text is the output. */
  reading: boolean;
  text: string;
}

/** The test cases of a report, or the error that made it unreadable. */
export function parseJunit(xml: string): { cases: TestCase[] } | { error: string } {
  const cases: TestCase[] = [];
  const stack: string[] = [];
  let current: OpenCase | undefined;
  let at = 0;
  const fail = (why: string) => ({ error: `JUnit XML parsing failed: ${why}` });
  const text = (piece: string) => {
    if (current?.reading) current.text += piece;
  };
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    if (lt < 0) break;
    text(decode(xml.slice(at, lt)));
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0) return fail('unterminated comment');
      at = end + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt + 9);
      if (end < 0) return fail('unterminated CDATA');
      text(xml.slice(lt + 9, end));
      at = end + 3;
      continue;
    }
    if (xml.startsWith('<?', lt) || xml.startsWith('<!', lt)) {
      const end = xml.indexOf('>', lt);
      if (end < 0) return fail('unterminated declaration');
      at = end + 1;
      continue;
    }
    TAG.lastIndex = lt;
    const tag = TAG.exec(xml);
    if (!tag) return fail(`malformed tag at offset ${lt}`);
    at = TAG.lastIndex;
    const [, closing, name, attributeText, selfClosing] = tag as unknown as [
      string,
      string,
      string,
      string,
      string,
    ];
    if (closing) {
      if (stack.pop() !== name) return fail(`unexpected </${name}>`);
      if (name === 'testcase' && current) {
        cases.push(finished(current));
        current = undefined;
      } else if ((name === 'failure' || name === 'error') && current?.reading) {
        current.output = current.text.trim() || current.output;
        current.reading = false;
      }
      continue;
    }
    const attributes = attributesOf(attributeText);
    if (name === 'testcase' && stack.includes('testsuite') && !current) {
      current = { attributes, status: 'success', output: null, reading: false, text: '' };
      if (selfClosing) {
        cases.push(finished(current));
        current = undefined;
      } else stack.push(name);
      continue;
    }
    if (current && stack.at(-1) === 'testcase') {
      if (name === 'failure' || name === 'error') {
        current.status = name === 'failure' ? 'failed' : 'error';
        current.output = attributes.get('message') ?? null;
        current.reading = !selfClosing;
        current.text = '';
      } else if (name === 'skipped' && current.status === 'success') current.status = 'skipped';
    }
    if (!selfClosing) stack.push(name);
  }
  if (stack.length > 0) return fail(`unclosed <${stack.at(-1)}>`);
  return { cases };
}

function finished(open: OpenCase): TestCase {
  const time = Number(open.attributes.get('time') ?? 0);
  return {
    status: open.status,
    name: open.attributes.get('name') ?? '',
    classname: open.attributes.get('classname') ?? '',
    file: open.attributes.get('file') ?? null,
    execution_time: Number.isFinite(time) ? time : 0,
    system_output: open.output,
  };
}
