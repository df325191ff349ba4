// Labrador's pre-receive hook: receive-pack runs it with the pushed "<old> <new> <ref>" lines on stdin
// and the caller's rights in LABRADOR_PUSH_RULES (set by the transport). A refused line prints GitLab's
// reason (the git client shows it as "remote: …") and a non-zero exit leaves every ref as it was. The
// decision is the one the API's writes use (policies/push-rules.mjs); this file only supplies the facts.
// Plain JavaScript with Node built-ins only: it starts as a separate process on every push.
import { spawnSync } from 'node:child_process';
import { refUpdateRefusal } from '../../policies/push-rules.mjs';

const given = JSON.parse(process.env.LABRADOR_PUSH_RULES || '{}');
const rules = {
  accessLevel: Number(given.accessLevel) || 0,
  archived: given.archived === true,
  protectedBranches: Array.isArray(given.protectedBranches) ? given.protectedBranches : [],
};

let empty;
const facts = {
  // Before the push: receive-pack moves refs only after this hook succeeds.
  repositoryIsEmpty() {
    if (empty === undefined) {
      const result = spawnSync('git', ['for-each-ref', '--count=1', '--format=%(refname)', 'refs/heads/']);
      empty = result.status === 0 && String(result.stdout).trim() === '';
    }
    return empty;
  },
  isAncestor(oldSha, newSha) {
    const result = spawnSync('git', ['merge-base', '--is-ancestor', oldSha, newSha], { stdio: 'ignore' });
    return result.status === 0;
  },
};

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', async () => {
  for (const line of input.split('\n')) {
    const [before, after, ref] = line.split(' ');
    if (!ref) continue;
    const refusal = await refUpdateRefusal({ before, after, ref }, rules, facts);
    if (refusal) {
      process.stderr.write(`${refusal}\n`);
      process.exit(1);
    }
  }
  process.exit(0);
});
