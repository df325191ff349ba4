// Labrador's pre-receive hook: receive-pack runs it with the pushed "<old> <new> <ref>" lines on stdin
// and the caller's rights in LABRADOR_PUSH_RULES (set by the smart HTTP route). A refused line prints
// GitLab's reason (the git client shows it as "remote: …") and a non-zero exit leaves every ref as it was.
// Plain JavaScript with Node built-ins only: it starts as a separate process on every push.
import { spawnSync } from 'node:child_process';

const BLANK = '0000000000000000000000000000000000000000';
const rules = JSON.parse(process.env.LABRADOR_PUSH_RULES || '{}');
const accessLevel = Number(rules.accessLevel) || 0;
const protectedBranches = Array.isArray(rules.protectedBranches) ? rules.protectedBranches : [];

// GitLab's wildcard: `*` matches any run of characters (slashes too), the rest literally.
function matches(pattern, branch) {
  if (!pattern.includes('*')) return pattern === branch;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*?');
  return new RegExp(`^${source}$`, 's').test(branch);
}

function isAncestor(oldSha, newSha) {
  const result = spawnSync('git', ['merge-base', '--is-ancestor', oldSha, newSha], { stdio: 'ignore' });
  return result.status === 0;
}

function check(before, after, ref) {
  if (rules.archived || accessLevel < 30) return 'You are not allowed to push code to this project.';
  if (ref.startsWith('refs/tags/')) {
    if (before !== BLANK && accessLevel < 40) {
      return 'You are not allowed to change existing tags on this project.';
    }
    return null;
  }
  if (!ref.startsWith('refs/heads/')) return null;
  const branch = ref.slice('refs/heads/'.length);
  const matching = protectedBranches.filter((rule) => matches(String(rule.name), branch));
  if (matching.length === 0) return null;
  if (after === BLANK) return 'You are not allowed to delete protected branches from this project.';
  if (before !== BLANK && !isAncestor(before, after)) {
    return 'You are not allowed to force push code to a protected branch on this project.';
  }
  const canPush = accessLevel >= 40 || matching.some((rule) => rule.developersCanPush);
  return canPush ? null : 'You are not allowed to push code to protected branches on this project.';
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  for (const line of input.split('\n')) {
    const [before, after, ref] = line.split(' ');
    if (!ref) continue;
    const refusal = check(before, after, ref);
    if (refusal) {
      process.stderr.write(`${refusal}\n`);
      process.exit(1);
    }
  }
  process.exit(0);
});
