// A build's coverage as GitLab 8.13 read it from the trace with the project's build_coverage_regex: the
// last match (its last group, when the expression has groups), and the first number in it. The
// expression is the user's, so it runs with a time limit; a bad or slow one gives no coverage.
import vm from 'node:vm';

const SCAN_TIMEOUT_MS = 2000;
const sandbox = vm.createContext({ pattern: '', subject: '' });
const lastMatch = new vm.Script(`(() => {
  let last = null;
  for (const match of subject.matchAll(new RegExp(pattern, 'g'))) last = match;
  if (last === null) return null;
  return last.length > 1 ? last[last.length - 1] ?? null : last[0];
})()`);

export function extractCoverage(trace: string, pattern: string): number | undefined {
  sandbox.pattern = pattern;
  sandbox.subject = trace;
  let matched: unknown;
  try {
    matched = lastMatch.runInContext(sandbox, { timeout: SCAN_TIMEOUT_MS });
  } catch {
    return undefined;
  } finally {
    sandbox.subject = '';
  }
  if (typeof matched !== 'string') return undefined;
  const number = /\d+(\.\d+)?/.exec(matched);
  return number ? Number.parseFloat(number[0]) : undefined;
}
