import { BlockList, isIP } from 'node:net';

// Addresses a request the server sends on a client's behalf (back-channel
// logout) must not reach unless allowed: whoever registers a client would
// otherwise have the server POST to its own network (SSRF). BlockList
// checks an IPv4-mapped IPv6 address (::ffff:127.0.0.1) by its IPv4 rules.

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // unspecified, "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, where clouds answer metadata requests
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // the deprecated site-local
] as const) PRIVATE.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address (v4 or v6, no brackets) is private, loopback, link-local, unique-local or unspecified. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A URL's hostname (as URL normalised it: 0x7f.1 is 127.0.0.1) that is a private IP literal or a localhost name (RFC 6761). */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  return isPrivateAddress(host) || host === 'localhost' || host.endsWith('.localhost');
}
