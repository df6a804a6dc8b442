/**
 * Which addresses a request to a user-given URL may reach (the SSRF policy behind
 * `./guarded-http.ts`): public unicast only, unless the operator's allowlist
 * (`OUTBOUND_ALLOWED_HOSTS`: host names, IP addresses, CIDR ranges) admits it.
 *
 * Ranges come from ipaddr.js's special-purpose registry (IANA). IPv6 forms that carry an IPv4
 * address (mapped ::ffff:a.b.c.d, IPv4-translated, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by
 * that IPv4 address, so ::ffff:127.0.0.1 is loopback like 127.0.0.1. Other notations of IPv4
 * (0x7f000001, 2130706433, 127.1, 0177.0.0.1) never reach this file: the WHATWG URL parser turns
 * them into 127.0.0.1 first, and resolved addresses come back from DNS in canonical form.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

export interface OutboundAllowlist {
  /** Lower-case host names without a trailing dot, admitted whatever they resolve to. */
  hosts: ReadonlySet<string>;
  cidrs: readonly Cidr[];
}

export const EMPTY_ALLOWLIST: OutboundAllowlist = { hosts: new Set(), cidrs: [] };

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/u;

/** Cloud metadata endpoints, named so a refusal says what was reached for. */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', '168.63.129.16', '100.100.100.200', 'fd00:ec2::254']);

const NAT64_WELL_KNOWN = ipaddr.IPv6.parse('64:ff9b::');

/** `OUTBOUND_ALLOWED_HOSTS`, comma-separated. Throws with the offending entry. */
export function parseOutboundAllowlist(value: string | readonly string[]): OutboundAllowlist {
  const entries = (typeof value === 'string' ? value.split(',') : value).map((e) => e.trim().toLowerCase()).filter(Boolean);
  const hosts = new Set<string>();
  const cidrs: Cidr[] = [];
  for (const entry of entries) {
    if (entry.includes('://')) {
      throw new Error(`"${entry}" is a URL: give only its host name or address`);
    } else if (entry.includes('/')) {
      try {
        cidrs.push(ipaddr.parseCIDR(entry));
      } catch {
        throw new Error(`"${entry}" is not a CIDR range (like 10.0.0.0/8 or fd00::/8)`);
      }
    } else if (isIP(unbracket(entry))) {
      const address = ipaddr.parse(unbracket(entry));
      cidrs.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (HOST_NAME.test(entry.replace(/\.$/u, ''))) {
      hosts.add(entry.replace(/\.$/u, ''));
    } else {
      throw new Error(`"${entry}" is not a host name, an IP address or a CIDR range`);
    }
  }
  return { hosts, cidrs };
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** A URL's host as compared with the allowlist: lower case, no brackets, no trailing dot. */
export function normaliseHost(hostname: string): string {
  return unbracket(hostname.toLowerCase()).replace(/\.$/u, '');
}

/** The IPv4 address an IPv6 address stands for, when it embeds one. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = address.toByteArray();
  const range = address.range();
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated), 64:ff9b::a.b.c.d (NAT64, well-known prefix only)
  if (range === 'ipv4Mapped' || range === 'rfc6145' || (range === 'rfc6052' && address.match(NAT64_WELL_KNOWN, 96))) {
    return ipaddr.IPv4.parse(bytes.slice(12).join('.'));
  }
  if (range === '6to4') return ipaddr.IPv4.parse(bytes.slice(2, 6).join('.')); // 2002:aabb:ccdd::/48
  return null;
}

/** ipaddr.js range names → what a refusal says; a special range not listed is "a reserved range". */
const RANGE_LABELS: Record<string, string | null> = {
  unicast: null,
  loopback: 'the loopback network',
  unspecified: 'the unspecified address',
  private: 'a private network',
  uniqueLocal: 'a private network',
  carrierGradeNat: 'a shared (carrier-grade NAT) network',
  linkLocal: 'a link-local network',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

function describeRange(address: Address): string | null {
  if (METADATA.has(address.toString())) return 'the cloud metadata service';
  const label = RANGE_LABELS[address.range()];
  return label === undefined ? 'a reserved range' : label;
}

function inAllowlist(address: Address, allowlist: OutboundAllowlist): boolean {
  return allowlist.cidrs.some(([net, bits]) =>
    address instanceof ipaddr.IPv4 ? net instanceof ipaddr.IPv4 && address.match(net, bits) : net instanceof ipaddr.IPv6 && address.match(net, bits),
  );
}

/**
 * Why a request may not go to this IP address (a short phrase such as "a private network"), or
 * null when it may: a public unicast address, or one the allowlist admits.
 */
export function refusedRange(ip: string, allowlist: OutboundAllowlist = EMPTY_ALLOWLIST): string | null {
  if (!ipaddr.isValid(ip) || !isIP(ip)) return 'not an IP address';
  const address = ipaddr.parse(ip);
  if (inAllowlist(address, allowlist)) return null;
  if (address instanceof ipaddr.IPv6) {
    const v4 = embeddedIPv4(address);
    if (v4) return inAllowlist(v4, allowlist) ? null : describeRange(v4);
    // ::a.b.c.d (IPv4-compatible, deprecated): ipaddr.js calls it unicast, but no public host lives there.
    if (address.parts.slice(0, 6).every((part) => part === 0)) return describeRange(address) ?? 'a reserved range';
    if (address.range() === 'rfc6052') return 'a private network';
  }
  return describeRange(address);
}

/** The ranges an operator-configured private service (the n8n instance) may live in. */
const CONFIGURED_HOST_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

/**
 * The relaxed check for the one origin an administrator configured as a service Parley talks to
 * (the n8n instance, `TrustedOrigins` in `./guarded-http.ts`): loopback and private networks are
 * admitted, as self-hosted n8n usually lives there; the metadata service, link-local, multicast
 * and reserved ranges are still refused. Returns the refused range's phrase, or null.
 */
export function refusedRangeForConfiguredHost(ip: string): string | null {
  const range = refusedRange(ip);
  if (range === null || range === 'not an IP address') return range;
  const address = ipaddr.parse(ip);
  const judged = address instanceof ipaddr.IPv6 ? (embeddedIPv4(address) ?? address) : address;
  if (METADATA.has(judged.toString())) return range;
  return CONFIGURED_HOST_RANGES.has(judged.range()) ? null : range;
}

/** The message a refused address gets, in the delivery log, the channel test and the LLM log. */
export function refusalMessage(address: string, range: string): string {
  return `Refused: the address resolves to ${range} (${address})`;
}

/**
 * The check at input time (saving a callback or base URL): http(s) only; `localhost` and IP
 * literals in a refused range are refused unless allowlisted. Other names are judged when the
 * request connects (`guarded-http.ts`), since only then is it known where they resolve.
 * Returns the reason, or null when the URL may be saved.
 */
export function checkOutboundUrl(url: string | URL, allowlist: OutboundAllowlist = EMPTY_ALLOWLIST): string | null {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return 'Not a valid URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'Only http and https URLs are allowed';
  const host = normaliseHost(parsed.hostname);
  if (allowlist.hosts.has(host)) return null;
  if (isIP(host)) {
    const range = refusedRange(host, allowlist);
    return range ? refusalMessage(host, range) : null;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return refusalMessage(host, 'the loopback network');
  return null;
}
