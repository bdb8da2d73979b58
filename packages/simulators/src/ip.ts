/** Source address checks of OAuth clients (MN-6): addresses and CIDR prefixes, IPv4 and IPv6. */
import { BlockList, isIP } from 'node:net';
import type { SimClientBody } from './oauth-client-body';

/** The socket's address with an IPv4-mapped IPv6 prefix removed (`::ffff:127.0.0.1` → `127.0.0.1`). */
export function normalizeAddress(address: string | undefined): string {
  const a = address ?? '';
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(a) ? a.slice(7) : a;
}

/** Whether `address` is within one of the entries (plain addresses or `net/prefix`). Bad entries never match. */
export function addressInList(address: string, list: readonly string[]): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const allowed = new BlockList();
  for (const entry of list) {
    const [net = '', prefix] = entry.trim().split('/');
    const entryFamily = isIP(net);
    if (entryFamily === 0) continue;
    const entryType = entryFamily === 4 ? 'ipv4' : 'ipv6';
    try {
      if (prefix === undefined) allowed.addAddress(net, entryType);
      else if (/^\d+$/.test(prefix)) allowed.addSubnet(net, Number(prefix), entryType);
    } catch {
      // a prefix out of range (patchClient is not validated): the entry matches nothing
    }
  }
  return allowed.check(address, type);
}

export function sourceAllowed(source: SimClientBody['allowed_source_client_address'], remoteAddress: string): boolean {
  if (source.source_type === 'ANYWHERE') return true;
  return addressInList(normalizeAddress(remoteAddress), source.ip_address_list);
}
