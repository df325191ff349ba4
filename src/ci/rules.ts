// `rules:` and `workflow: rules:` as today's GitLab reads them. A rule matches when all of its `if`,
// `changes` and `exists` clauses hold (an absent clause holds); the first matching rule decides the
// job's `when`, `allow_failure` and extra variables, and a job no rule matches is not created.
//
// `if` is GitLab's small expression language: `$VAR` (true when set and not empty), "strings" or
// 'strings', `/regexp/flags`, `null`, `==`, `!=`, `=~`, `!~`, `&&` (binds tighter than `||`) and
// parentheses. A `$VAR` on the right of `=~` holding `/…/` is used as the pattern, as GitLab 15 does.
import { userRegexpMatches } from './ref-policy.ts';

export type VariableMap = ReadonlyMap<string, string>;

type Token =
  | { kind: 'variable'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'regexp'; source: string; flags: string }
  | { kind: 'null' }
  | { kind: 'operator'; value: '==' | '!=' | '=~' | '!~' | '&&' | '||' }
  | { kind: 'paren'; value: '(' | ')' };

const TOKEN =
  /\s*(?:\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|\/((?:[^/\\]|\\.)*)\/([a-z]*)|(null)\b|(==|!=|=~|!~|&&|\|\|)|([()]))/y;

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < expression.length) {
    if (expression.slice(at).trim() === '') break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(expression);
    if (!m) throw new Error(`invalid expression syntax`);
    at = TOKEN.lastIndex;
    if (m[1] !== undefined) tokens.push({ kind: 'variable', name: m[1] });
    else if (m[2] !== undefined) tokens.push({ kind: 'string', value: m[2].replace(/\\(.)/g, '$1') });
    else if (m[3] !== undefined) tokens.push({ kind: 'string', value: m[3].replace(/\\(.)/g, '$1') });
    else if (m[4] !== undefined)
      tokens.push({ kind: 'regexp', source: m[4].replace(/\\\//g, '/'), flags: m[5]! });
    else if (m[6] !== undefined) tokens.push({ kind: 'null' });
    else if (m[7] !== undefined) tokens.push({ kind: 'operator', value: m[7] as '==' });
    else tokens.push({ kind: 'paren', value: m[8] as '(' });
  }
  return tokens;
}

type Value = string | null | { source: string; flags: string };
type Node =
  | { kind: 'operand'; token: Token }
  | { kind: 'compare'; op: '==' | '!=' | '=~' | '!~'; left: Node; right: Node }
  | { kind: 'and' | 'or'; left: Node; right: Node };

/** Parses an `if:` expression; throws "invalid expression syntax" on a malformed one. */
export function parseExpression(expression: string): Node {
  const tokens = tokenize(expression);
  let i = 0;
  const fail = (): never => {
    throw new Error('invalid expression syntax');
  };
  const primary = (): Node => {
    const token = tokens[i++] ?? fail();
    if (token.kind === 'paren' && token.value === '(') {
      const inner = or();
      const close = tokens[i++];
      if (!close || close.kind !== 'paren' || close.value !== ')') fail();
      return inner;
    }
    if (token.kind === 'operator' || token.kind === 'paren') fail();
    return { kind: 'operand', token };
  };
  const compare = (): Node => {
    const left = primary();
    const next = tokens[i];
    if (next?.kind === 'operator' && ['==', '!=', '=~', '!~'].includes(next.value)) {
      i++;
      return { kind: 'compare', op: next.value as '==', left, right: primary() };
    }
    return left;
  };
  const and = (): Node => {
    let left = compare();
    while (tokens[i]?.kind === 'operator' && (tokens[i] as { value: string }).value === '&&') {
      i++;
      left = { kind: 'and', left, right: compare() };
    }
    return left;
  };
  const or = (): Node => {
    let left = and();
    while (tokens[i]?.kind === 'operator' && (tokens[i] as { value: string }).value === '||') {
      i++;
      left = { kind: 'or', left, right: and() };
    }
    return left;
  };
  const tree = or();
  if (i !== tokens.length) fail();
  return tree;
}

function operandValue(token: Token, variables: VariableMap): Value {
  switch (token.kind) {
    case 'variable':
      return variables.get(token.name) ?? null;
    case 'string':
      return token.value;
    case 'regexp':
      return { source: token.source, flags: token.flags };
    default:
      return null;
  }
}

const isPattern = (value: Value): value is { source: string; flags: string } =>
  value !== null && typeof value === 'object';

function asPattern(value: Value): { source: string; flags: string } | undefined {
  if (isPattern(value)) return value;
  const m = typeof value === 'string' ? /^\/(.*)\/([a-z]*)$/s.exec(value) : null;
  return m ? { source: m[1]!, flags: m[2]! } : undefined;
}

const truthy = (value: Value | boolean): boolean =>
  typeof value === 'boolean' ? value : value !== null && (typeof value === 'object' || value !== '');

function evaluate(node: Node, variables: VariableMap): Value | boolean {
  switch (node.kind) {
    case 'operand':
      return operandValue(node.token, variables);
    case 'and':
      return truthy(evaluate(node.left, variables)) && truthy(evaluate(node.right, variables));
    case 'or':
      return truthy(evaluate(node.left, variables)) || truthy(evaluate(node.right, variables));
    case 'compare': {
      const left = evaluate(node.left, variables) as Value;
      const right = evaluate(node.right, variables) as Value;
      if (node.op === '==' || node.op === '!=') {
        const same = isPattern(left) || isPattern(right) ? false : left === right;
        return node.op === '==' ? same : !same;
      }
      const pattern = asPattern(right);
      const matched =
        pattern !== undefined &&
        typeof left === 'string' &&
        userRegexpMatches(pattern.source, pattern.flags, left);
      return node.op === '=~' ? matched : !matched;
    }
  }
}

function expressionHolds(expression: string, variables: VariableMap): boolean {
  return truthy(evaluate(parseExpression(expression), variables));
}

/**
 * `$VAR`, `${VAR}` and `%VAR%` replaced by their values (unknown ones by nothing), `$$` kept as a
 * literal `$`, as GitLab expands variables in `variables:` and names.
 */
export function expandVariables(text: string, variables: VariableMap): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)|%([A-Za-z_][A-Za-z0-9_]*)%/g,
    (all, a, b, c) => {
      if (all === '$$') return '$';
      const name = (a ?? b ?? c) as string;
      return variables.get(name) ?? (c !== undefined ? all : '');
    },
  );
}

/** A glob as File.fnmatch with FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB reads it. */
function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end === -1) out += '\\{';
      else {
        out += `(?:${glob
          .slice(i + 1, end)
          .split(',')
          .map((part) => part.replace(/[.+^$()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
          .join('|')})`;
        i = end;
      }
    } else out += c.replace(/[.+^$()|[\]\\}]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** What a rule's `changes`/`exists` are checked against; undefined changes means "always true". */
export interface RuleFiles {
  changed(): Promise<string[] | undefined>;
  tree(): Promise<string[]>;
}

export interface CiRule {
  if?: string;
  changes?: string[];
  exists?: string[];
  when?: string;
  allowFailure?: boolean;
  startIn?: string;
  variables?: Record<string, string>;
}

async function ruleMatches(rule: CiRule, variables: VariableMap, files: RuleFiles): Promise<boolean> {
  if (rule.if !== undefined && !expressionHolds(rule.if, variables)) return false;
  if (rule.changes !== undefined) {
    const changed = await files.changed();
    if (changed !== undefined) {
      const globs = rule.changes.map((glob) => globToRegExp(expandVariables(glob, variables)));
      if (!changed.some((path) => globs.some((glob) => glob.test(path)))) return false;
    }
  }
  if (rule.exists !== undefined) {
    const tree = await files.tree();
    const globs = rule.exists.map((glob) => globToRegExp(expandVariables(glob, variables)));
    if (!tree.some((path) => globs.some((glob) => glob.test(path)))) return false;
  }
  return true;
}

/** The first rule that matches, or undefined when none does. */
export async function firstMatchingRule(
  rules: CiRule[],
  variables: VariableMap,
  files: RuleFiles,
): Promise<CiRule | undefined> {
  for (const rule of rules) if (await ruleMatches(rule, variables, files)) return rule;
  return undefined;
}
