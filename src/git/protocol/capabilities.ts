// The protocol v2 capability advertisement of upload-pack (the answer to `info/refs` for a v2 client:
// `ls-remote`, `clone` and `fetch` of git 2.26+). Unlike v0's, it lists no refs: it is a function of
// the git binary and of the configuration git reads (the repository's `config`, the user's global one),
// so it is kept per configuration and the request is answered without starting a process. Refs are
// listed by the `ls-refs` command that follows (ls-refs.ts).
import { BoundedMap } from '../../lib/bounded-map.ts';
import { gitConfigState } from '../config-state.ts';
import { runGit } from '../exec.ts';

/** Distinct configurations remembered (repositories made by Labrador share one). */
const MAX_ENTRIES = 64;
const cache = new BoundedMap<string, Promise<Buffer | null>>(MAX_ENTRIES);

async function advertise(repoPath: string, gitProtocol: string): Promise<Buffer | null> {
  const result = await runGit(['upload-pack', '--stateless-rpc', '--advertise-refs', repoPath], {
    env: { GIT_PROTOCOL: gitProtocol },
  });
  // Anything but a v2 advertisement (an old git answering v0 with refs, a failure) is never reused.
  if (result.code !== 0 || !result.stdout.subarray(0, 14).equals(Buffer.from('000eversion 2\n'))) return null;
  return result.stdout;
}

/**
 * The v2 advertisement for `repoPath`, or null when git did not give one (then the caller runs git for
 * this request as before). `gitProtocol` is the client's Git-Protocol value, already validated.
 */
export async function uploadPackV2Advertisement(
  repoPath: string,
  gitProtocol: string,
): Promise<Buffer | null> {
  const key = `${gitProtocol}\0${(await gitConfigState(repoPath)).key}`;
  let entry = cache.get(key);
  if (!entry) {
    entry = advertise(repoPath, gitProtocol);
    cache.set(key, entry);
    // A failed or non-v2 answer is not remembered: the next request asks git again.
    entry.then(
      (value) => value === null && cache.delete(key),
      () => cache.delete(key),
    );
  }
  return entry;
}
