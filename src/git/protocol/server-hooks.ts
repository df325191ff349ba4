// Server-side git hooks shared by every repository through `-c core.hooksPath=<dataDir>/hooks` on
// receive-pack (repositories themselves stay plain bare repositories). Written at start-up.
//
// The pre-receive hook decides nothing itself: the server has already judged every ref update of the
// push with the push rules (services/push/push-verdicts.ts, from the commands at the start of the request)
// and wrote, for each command in order, the line "<old> <new> <ref>" and the line
// "<refusal if old is an ancestor of new><TAB><refusal otherwise>" (empty: allowed) into the file named
// by LABRADOR_PUSH_VERDICTS. The only fact that needs the pushed objects, ancestry (a force push), is
// asked of git here, where receive-pack's quarantine makes them visible. A POSIX shell script starts
// in about a millisecond, where a Node process took 40 ms or more on every push.
//
// receive-pack feeds the hook the commands it will apply, in the order they were sent (those it already
// rejected left out), so the verdicts are read forward alongside. A command without a verdict, or a
// missing file, refuses the push.
import fs from 'node:fs/promises';
import path from 'node:path';

export function hooksPath(dataDir: string): string {
  return path.join(dataDir, 'hooks');
}

export const UNCHECKED_PUSH = 'The push could not be checked; try again.';

const PRE_RECEIVE = `#!/bin/sh
# Labrador's pre-receive hook, written at start-up (src/git/protocol/server-hooks.ts): applies the verdicts the
# server wrote into $LABRADOR_PUSH_VERDICTS; a refusal is printed (git shows "remote: ...") and exit 1
# leaves every ref as it was.
if [ -z "$LABRADOR_PUSH_VERDICTS" ] || [ ! -r "$LABRADOR_PUSH_VERDICTS" ]; then
  echo '${UNCHECKED_PUSH}' >&2
  exit 1
fi
exec 3< "$LABRADOR_PUSH_VERDICTS"
while read -r old new ref; do
  while :; do
    if ! IFS= read -r command <&3 || ! IFS= read -r verdict <&3; then
      echo '${UNCHECKED_PUSH}' >&2
      exit 1
    fi
    [ "$command" = "$old $new $ref" ] && break
  done
  refusal=\${verdict%%\t*}
  otherwise=\${verdict#*\t}
  if [ "$refusal" != "$otherwise" ] && ! git merge-base --is-ancestor "$old" "$new" 2>/dev/null; then
    refusal=$otherwise
  fi
  if [ -n "$refusal" ]; then
    printf '%s\\n' "$refusal" >&2
    exit 1
  fi
done
exit 0
`;

export async function installHooks(dataDir: string): Promise<void> {
  const dir = hooksPath(dataDir);
  await fs.mkdir(dir, { recursive: true });
  const target = path.join(dir, 'pre-receive');
  // Written to a temporary name and renamed: a push running meanwhile never sees half a script.
  const temporary = `${target}.${process.pid}.tmp`;
  await fs.writeFile(temporary, PRE_RECEIVE, { mode: 0o755 });
  await fs.rename(temporary, target);
}
