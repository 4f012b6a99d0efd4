import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export const PRIVATE_TARGET = 'The URL points at a loopback, link-local or private address';
/** The one wording for every failure to reach a receiver: the log must not map the restaurant's network. */
export const CONNECTION_FAILED = 'Connection failed';

/**
 * Addresses a webhook may not reach while `webhooks_block_private_targets` is on: "this" network,
 * loopback, private (RFC 1918, carrier-grade NAT, IPv6 unique local), link-local (cloud metadata
 * services live at 169.254.169.254), multicast and broadcast.
 */
const PRIVATE_RANGES = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mappedV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  if (mappedV4) return PRIVATE_RANGES.check(mappedV4, 'ipv4');
  const family = isIP(bare);
  if (family === 0) return false;
  return PRIVATE_RANGES.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Whether the URL's host is, or resolves to, an address a blocked webhook may not reach. A name that
 * does not resolve is not private (yet): the check at delivery time catches it when it does.
 */
export async function isPrivateTarget(url: string): Promise<boolean> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return isPrivateAddress(host);
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  try {
    const addresses = await lookup(name, { all: true, verbatim: true });
    return addresses.some((entry) => isPrivateAddress(entry.address));
  } catch {
    return false;
  }
}

const SECRET_QUERY_KEYS =
  /^(access_token|api_?key|apikey|auth|key|password|pass|secret|sig|signature|token)$/i;

/**
 * The URL as admins see it: credentials in the user-info and the values of conventionally secret
 * query parameters (token, key, secret, signature…) become `***`. Only the stored URL is whole.
 */
export function maskUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  let isMasked = false;
  if (parsed.username !== '' || parsed.password !== '') {
    parsed.username = '***';
    parsed.password = parsed.password === '' ? '' : '***';
    isMasked = true;
  }
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_QUERY_KEYS.test(key)) {
      parsed.searchParams.set(key, '***');
      isMasked = true;
    }
  }
  return isMasked ? parsed.href : url;
}
