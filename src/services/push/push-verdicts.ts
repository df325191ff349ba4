// The push rules applied to the ref updates of a `git push` by the server, before receive-pack has the
// pack: for each command, what refUpdateRefusal answers if the old value is an ancestor of the new one
// and if it is not (only a force push depends on it, and only the pre-receive hook can ask, once the
// pushed objects are there). The hook (git/server-hooks.ts) reads them from the file written here, so
// the decision stays the one the API's writes use (policies/push-rules.ts).
import { hasBranches } from '../../git/refs.ts';
import type { RefUpdate } from '../../git/protocol/pkt-line.ts';
import { refUpdateRefusal, type PushRules, type RepositoryFacts } from '../../policies/push-rules.ts';

/** The verdict lines of `commands` for the pre-receive hook, in their order. */
export async function pushVerdicts(
  repoPath: string,
  rules: PushRules,
  commands: RefUpdate[],
): Promise<string> {
  let empty: Promise<boolean> | undefined;
  const repositoryIsEmpty = () => (empty ??= hasBranches(repoPath).then((any) => !any));
  const lines: string[] = [];
  for (const command of commands) {
    let askedAncestry = false;
    const assuming = (ancestor: boolean): RepositoryFacts => ({
      repositoryIsEmpty,
      isAncestor: () => {
        askedAncestry = true;
        return ancestor;
      },
    });
    const refusal = (await refUpdateRefusal(command, rules, assuming(true))) ?? '';
    const otherwise = askedAncestry
      ? ((await refUpdateRefusal(command, rules, assuming(false))) ?? '')
      : refusal;
    lines.push(`${command.before} ${command.after} ${command.ref}`, `${refusal}\t${otherwise}`);
  }
  return lines.map((line) => `${line}\n`).join('');
}
