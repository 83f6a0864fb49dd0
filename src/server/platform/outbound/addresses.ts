import { isIPv4, isIPv6 } from 'node:net'

/**
 * IP address arithmetic for the outbound guard (`outbound.ts`): which addresses count as local
 * (GitLab's UrlBlocker categories, each with its refusal text) and ranges for the allowlist.
 * Addresses are handled as numbers, so every spelling of one address is the same value.
 */

/** An IPv4 or IPv6 address as a number; IPv4-mapped IPv6 addresses are IPv4. */
export interface IpValue {
  readonly version: 4 | 6
  readonly value: bigint
}

/** A CIDR range (`10.0.0.0/8`, `fc00::/7`); a single address is a full-length prefix. */
export interface IpRange {
  readonly version: 4 | 6
  readonly base: bigint
  readonly bits: number
}

/** Why an address is local, in GitLab's words of refusal. */
export const LOCAL_ADDRESS_MESSAGES = {
  localhost: 'Requests to localhost are not allowed',
  loopback: 'Requests to loopback addresses are not allowed',
  local_network: 'Requests to the local network are not allowed',
  link_local: 'Requests to the link local network are not allowed',
  shared_address: 'Requests to the shared address space are not allowed',
  limited_broadcast: 'Requests to the limited broadcast address are not allowed',
  // GitLab does not name these (nothing answers there); refused with the local ones all the same.
  reserved: 'Requests to reserved, multicast or documentation addresses are not allowed',
} as const

export type LocalAddressKind = keyof typeof LOCAL_ADDRESS_MESSAGES

const V4_MAPPED = range('::ffff:0:0', 96)

function parseIPv4(text: string): bigint {
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n)
}

/** The eight groups of an IPv6 address as one number (a trailing dotted quad included). */
function parseIPv6(text: string): bigint {
  let hex = text
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(hex)
  if (quad) {
    const v4 = parseIPv4(quad[1])
    hex = `${hex.slice(0, -quad[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`
  }
  const [head, tail] = hex.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n)
}

/**
 * The address as a number, or null when `text` is not an IP address. Brackets and an IPv6
 * zone (`fe80::1%eth0`) are ignored; an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, in any
 * spelling) is its IPv4 address, as GitLab compares them.
 */
export function parseIp(text: string): IpValue | null {
  const bare = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '')
  if (isIPv4(bare)) return { version: 4, value: parseIPv4(bare) }
  if (!isIPv6(bare)) return null
  const value = parseIPv6(bare)
  return inRange({ version: 6, value }, V4_MAPPED) ? { version: 4, value: value & 0xffffffffn } : { version: 6, value }
}

/** The range `address/bits` (`bits` defaults to the whole address); throws on a bad address. */
export function range(address: string, bits?: number): IpRange {
  const bare = address.replace(/^\[(.*)\]$/, '$1')
  const version = isIPv4(bare) ? 4 : isIPv6(bare) ? 6 : null
  if (version === null) throw new Error(`not an IP address: ${address}`)
  const value = version === 4 ? parseIPv4(bare) : parseIPv6(bare)
  const width = version === 4 ? 32 : 128
  return { version, base: value, bits: bits ?? width }
}

/** True when the address lies in the range (same version, same leading `bits`). */
export function inRange(ip: IpValue, r: IpRange): boolean {
  if (ip.version !== r.version) return false
  const shift = BigInt((r.version === 4 ? 32 : 128) - r.bits)
  return ip.value >> shift === r.base >> shift
}

/** `10.0.0.0/8`, `::1`, `[::1]`: a range, or null when the text is none. */
export function parseRange(text: string): IpRange | null {
  const m = /^(.+?)(?:\/(\d{1,3}))?$/.exec(text)
  if (!m) return null
  const ip = parseIp(m[1])
  if (!ip) return null
  const width = ip.version === 4 ? 32 : 128
  const bits = m[2] === undefined ? width : Number(m[2])
  if (bits > width) return null
  return { version: ip.version, base: ip.value, bits }
}

/** Local IPv4 ranges, most specific first (the broadcast address lies inside 240.0.0.0/4). */
const V4_LOCAL: readonly (readonly [IpRange, LocalAddressKind])[] = [
  [range('0.0.0.0', 8), 'localhost'],
  [range('127.0.0.0', 8), 'loopback'],
  [range('10.0.0.0', 8), 'local_network'],
  [range('172.16.0.0', 12), 'local_network'],
  [range('192.168.0.0', 16), 'local_network'],
  // Cloud metadata services answer at 169.254.169.254.
  [range('169.254.0.0', 16), 'link_local'],
  // Carrier-grade NAT; one cloud's metadata service answers at 100.100.100.200.
  [range('100.64.0.0', 10), 'shared_address'],
  [range('255.255.255.255'), 'limited_broadcast'],
  // IETF protocol assignments (another cloud's metadata service is 192.0.0.192).
  [range('192.0.0.0', 24), 'reserved'],
  [range('192.0.2.0', 24), 'reserved'],
  [range('198.51.100.0', 24), 'reserved'],
  [range('203.0.113.0', 24), 'reserved'],
  [range('198.18.0.0', 15), 'reserved'],
  [range('192.88.99.0', 24), 'reserved'],
  [range('224.0.0.0', 4), 'reserved'],
  [range('240.0.0.0', 4), 'reserved'],
]

/**
 * IPv6 ranges that carry an IPv4 address in their last 32 bits and reach it: IPv4-compatible
 * (`::127.0.0.1`), IPv4-translated and NAT64. The address counts as the IPv4 address it carries.
 */
const V6_EMBEDDING_V4: readonly IpRange[] = [range('::', 96), range('::ffff:0:0:0', 96), range('64:ff9b::', 96)]
/** 6to4 (`2002:AABB:CCDD::/48`) carries its IPv4 address in bits 16 to 48. */
const V6_6TO4 = range('2002::', 16)

const V6_UNSPECIFIED = range('::')
const V6_LOOPBACK = range('::1')

const V6_LOCAL: readonly (readonly [IpRange, LocalAddressKind])[] = [
  [range('64:ff9b:1::', 48), 'local_network'],
  [range('fc00::', 7), 'local_network'],
  [range('fec0::', 10), 'local_network'],
  [range('fe80::', 10), 'link_local'],
  [range('ff00::', 8), 'reserved'],
  [range('100::', 64), 'reserved'],
  [range('2001:db8::', 32), 'reserved'],
  // Teredo tunnels to an IPv4 address it obfuscates.
  [range('2001::', 32), 'reserved'],
]

/** What makes `ip` local, or null for a public address. */
export function localKindOf(ip: IpValue): LocalAddressKind | null {
  if (ip.version === 4) return V4_LOCAL.find(([r]) => inRange(ip, r))?.[1] ?? null
  // Both lie inside the IPv4-compatible range below, whose rule would misname them.
  if (inRange(ip, V6_UNSPECIFIED)) return 'localhost'
  if (inRange(ip, V6_LOOPBACK)) return 'loopback'
  if (V6_EMBEDDING_V4.some((r) => inRange(ip, r))) return localKindOf({ version: 4, value: ip.value & 0xffffffffn })
  if (inRange(ip, V6_6TO4)) return localKindOf({ version: 4, value: (ip.value >> 80n) & 0xffffffffn })
  return V6_LOCAL.find(([r]) => inRange(ip, r))?.[1] ?? null
}
