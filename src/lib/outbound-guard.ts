// Which addresses Labrador's own outbound requests (hook deliveries, and any later one) may reach: none of
// the server's own or local networks — loopback, private, link-local (169.254.169.254 included), CGNAT,
// unspecified, unique-local, multicast and reserved ranges, whether written as IPv4 or IPv4-mapped IPv6
// — unless the operator lists them in LABRADOR_OUTBOUND_ALLOWLIST or allows local targets outright.
//
// A URL is judged twice: when a hook is saved (its literal address, or what its name resolves to now; a
// name that does not resolve is accepted, as GitLab's UrlBlocker did), and on every connection
// (`guardedConnector`): the name is resolved once, the resolved address is judged and the socket goes to
// that very address, so a name that answers differently the second time (DNS rebinding) gains nothing.
// WHATWG URL parsing already turns decimal, octal, hex and short IPv4 spellings and `user@host` forms
// into the plain hostname, so only that hostname is looked at. Address parsing is ipaddr.js's (the
// library Express's proxy-addr uses) rather than ours.
import dns from 'node:dns/promises';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import type { buildConnector } from 'undici';

export interface OutboundPolicy {
  /** Hosts (names), IP addresses and CIDR ranges that may be reached although local. */
  allowlist: string[];
  /** Every local target allowed (GitLab's allow_local_requests_from_web_hooks_and_services). */
  allowLocal: boolean;
}

/** A request that was not made because of where it would have gone; `reason` is said to the user. */
export class OutboundRefused extends Error {
  readonly code = 'LABRADOR_OUTBOUND_REFUSED';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Why an address may not be reached (GitLab's wording where it had one), or undefined. */
function addressProblem(address: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    const range = v6.range();
    // ::ffff:a.b.c.d and the NAT64 forms carry an IPv4 address that is the one actually reached.
    if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') {
      const bytes = v6.toByteArray().slice(-4);
      return addressProblem(new ipaddr.IPv4(bytes));
    }
    if (range === 'unicast') return undefined;
    return v6Reasons[range] ?? `Requests to reserved addresses (${range}) are not allowed`;
  }
  const range = (address as ipaddr.IPv4).range();
  if (range === 'unicast') return undefined;
  return v4Reasons[range] ?? `Requests to reserved addresses (${range}) are not allowed`;
}

const LOOPBACK = 'Requests to localhost are not allowed';
const LOCAL_NETWORK = 'Requests to the local network are not allowed';
const LINK_LOCAL = 'Requests to the link local network are not allowed';
const UNSPECIFIED = 'Requests to the unspecified address are not allowed';
const v4Reasons: Record<string, string> = {
  loopback: LOOPBACK,
  private: LOCAL_NETWORK,
  carrierGradeNat: LOCAL_NETWORK,
  linkLocal: LINK_LOCAL,
  unspecified: UNSPECIFIED,
  broadcast: 'Requests to broadcast addresses are not allowed',
  multicast: 'Requests to multicast addresses are not allowed',
};
const v6Reasons: Record<string, string> = {
  loopback: LOOPBACK,
  uniqueLocal: LOCAL_NETWORK,
  linkLocal: LINK_LOCAL,
  unspecified: UNSPECIFIED,
  multicast: 'Requests to multicast addresses are not allowed',
};

/** LABRADOR_OUTBOUND_ALLOWLIST's entries, checked at start: an IP, a CIDR range or a host name. */
export function validAllowlistEntry(entry: string): boolean {
  if (ipaddr.isValid(entry) && net.isIP(entry) !== 0) return true;
  if (entry.includes('/')) return ipaddr.isValidCIDR(entry);
  return /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i.test(
    entry,
  );
}

function normalHost(host: string): string {
  return host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** The policy compiled once: host names as a set, addresses and ranges parsed. */
class CompiledPolicy {
  readonly hosts = new Set<string>();
  readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];

  constructor(readonly policy: OutboundPolicy) {
    for (const entry of policy.allowlist) {
      if (entry.includes('/') && ipaddr.isValidCIDR(entry)) this.ranges.push(ipaddr.parseCIDR(entry));
      else if (net.isIP(entry)) {
        const address = ipaddr.parse(entry);
        this.ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      } else this.hosts.add(normalHost(entry));
    }
  }

  /** Why `address` (reached for `host`) is refused, or undefined when it may be reached. */
  refusal(host: string, address: string): string | undefined {
    if (this.policy.allowLocal || this.hosts.has(normalHost(host))) return undefined;
    let parsed = ipaddr.parse(address);
    const problem = addressProblem(parsed);
    if (problem === undefined) return undefined;
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
      parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    }
    for (const [base, bits] of this.ranges) {
      if (base.kind() === parsed.kind() && parsed.match(base, bits)) return undefined;
    }
    return problem;
  }
}

const compiled = new WeakMap<OutboundPolicy, CompiledPolicy>();
function compile(policy: OutboundPolicy): CompiledPolicy {
  let found = compiled.get(policy);
  if (!found) compiled.set(policy, (found = new CompiledPolicy(policy)));
  return found;
}

/** Every address `host` stands for: itself when it is an address, else what the resolver answers. */
async function addressesOf(host: string): Promise<string[]> {
  const bare = normalHost(host);
  if (net.isIP(bare)) return [bare];
  const found = await dns.lookup(bare, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
}

/**
 * Why a hook URL may not be saved, or undefined. Refused when any address its host stands for now is
 * refused; a name that does not resolve (yet) passes here and is judged again on each connection.
 */
export async function outboundUrlProblem(url: string, policy: OutboundPolicy): Promise<string | undefined> {
  const target = await outboundTarget(url, policy);
  return 'problem' in target ? target.problem : undefined;
}

/**
 * Where another program (git, for an import) may connect for `url`: the refusal, or the addresses its host
 * stands for now, all of them allowed, for that program to use and never resolve again (`undefined` when
 * every target is allowed or the name does not resolve: nothing to pin).
 */
export async function outboundTarget(
  url: string,
  policy: OutboundPolicy,
): Promise<{ problem: string } | { addresses: string[] | undefined }> {
  const host = new URL(url).hostname;
  const rules = compile(policy);
  if (rules.policy.allowLocal) return { addresses: undefined };
  let addresses: string[];
  try {
    addresses = await addressesOf(host);
  } catch {
    return { addresses: undefined };
  }
  for (const address of addresses) {
    const problem = rules.refusal(host, address);
    if (problem) return { problem };
  }
  return { addresses };
}

type Connector = buildConnector.connector;

/**
 * An undici `connect` function that resolves the host once, refuses (OutboundRefused, no packet sent)
 * when any of its addresses is refused, and otherwise connects to those addresses itself, in the
 * resolver's order until one answers. TLS still checks the certificate against the name: undici takes the
 * SNI name from the Host, not from the address.
 */
export function guardedConnector(base: Connector, policy: OutboundPolicy): Connector {
  const rules = compile(policy);
  return (options, callback) => {
    const attempt = (addresses: string[], index: number) =>
      base({ ...options, hostname: addresses[index] }, (error, socket) => {
        if (error && index + 1 < addresses.length) attempt(addresses, index + 1);
        else if (error) callback(error, null);
        else callback(null, socket!);
      });
    addressesOf(options.hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw new OutboundRefused(`${options.hostname} has no address`);
        for (const address of addresses) {
          const problem = rules.refusal(options.hostname, address);
          if (problem) throw new OutboundRefused(problem);
        }
        return addresses;
      })
      .then(
        (addresses) => attempt(addresses, 0),
        (error: unknown) => callback(error as Error, null),
      );
  };
}
