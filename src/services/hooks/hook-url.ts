// WebHook's `url: true` validation, shared by project and system hooks, and GitLab 10.6's refusal of
// targets on the local network (lib/outbound-guard.ts says which).
import type { OutboundPolicy } from '../../lib/outbound-guard.ts';
import { outboundUrlProblem } from '../../lib/outbound-guard.ts';
import { ApiError } from '../../errors.ts';
import type { Executor } from '../../db/types.ts';
import type { HookKind } from '../../db/schema.ts';
import {
  allowsLocalRequestsFromSystemHooks,
  allowsLocalRequestsFromWebHooks,
} from '../instance/application-settings.ts';

/** GitLab's hooks.url column held 2,000 characters. */
const MAX_HOOK_URL_LENGTH = 2000;

/**
 * An http(s) URL with a host, after stripping blanks, within MAX_HOOK_URL_LENGTH characters and free of
 * control characters (NUL included: Ruby's URI parser refused them); answers the URL to store, or
 * undefined.
 */
export function validHookUrl(url: string): string | undefined {
  const text = url.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (text === '' || /[\s\u0000-\u001f\u007f]/.test(text)) return undefined;
  if (characterCount(text, MAX_HOOK_URL_LENGTH) > MAX_HOOK_URL_LENGTH) return undefined;
  try {
    const parsed = new URL(text);
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '') return text;
  } catch {
    // not a URL
  }
  return undefined;
}

/** Characters (code points, as the column counted them), counting no further than `limit` + 1. */
function characterCount(text: string, limit: number): number {
  if (text.length <= limit) return text.length;
  let count = 0;
  for (const _ of text) if (++count > limit) break;
  return count;
}

/**
 * Refuses (422, `{"message":{"url":["is blocked: <why>"]}}` as GitLab's UrlBlocker validation said it) a
 * hook URL whose host is, or now resolves to, an address outbound requests may not reach.
 */
export async function refuseLocalHookUrl(url: string, policy: OutboundPolicy): Promise<void> {
  const problem = await outboundUrlProblem(url, policy);
  if (problem) throw new ApiError(422, { message: { url: [`is blocked: ${problem}`] } });
}

/**
 * The outbound policy for a hook of `kind` (or a project import, which counts as a web hook): the
 * configured allowlist, and local targets allowed when the configuration or the administrator's
 * application setting for that kind allows them (read each time, so every process follows a change).
 */
export async function outboundPolicyFor(
  db: Executor,
  configured: OutboundPolicy,
  kind: HookKind,
): Promise<OutboundPolicy> {
  if (configured.allowLocal) return configured;
  const allowLocal =
    kind === 'system'
      ? await allowsLocalRequestsFromSystemHooks(db)
      : await allowsLocalRequestsFromWebHooks(db);
  return allowLocal ? { ...configured, allowLocal } : configured;
}
