import { lookup as dnsLookup } from 'node:dns/promises'
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { networkInterfaces } from 'node:os'
import { Readable } from 'node:stream'
import { domainToASCII } from 'node:url'
import type { ServerContext } from '../context'
import {
  inRange,
  LOCAL_ADDRESS_MESSAGES,
  localKindOf,
  parseIp,
  parseRange,
  type IpRange,
  type IpValue,
  type LocalAddressKind,
} from './addresses'

/**
 * The one guard for every request Burrow Server makes to another host (import sources and the
 * git fetches of imports today; webhooks and integrations are to use it too), after GitLab's
 * UrlBlocker with DNS-rebinding protection:
 *
 * 1. `checkOutboundUrl` parses the URL with the URL standard (so `2130706433`, `0x7f.1`,
 *    `0177.0.0.1` and `127.1` are all 127.0.0.1), allows http and https only and no credentials
 *    in the URL, resolves the host name to every address it has and, unless local requests are
 *    allowed, refuses when ANY of them is local (loopback, private, link-local, shared,
 *    unspecified, broadcast, multicast, reserved, this machine's own addresses, IPv4 addresses
 *    carried in IPv6 ones) or the name is `localhost` or `*.localhost`;
 * 2. the request then goes to those checked addresses only: `outboundFetch` hands Node a lookup
 *    that answers them, and `gitPinning` tells git (libcurl) the same with
 *    `http.curloptResolve`. No second name lookup happens, so a name that answers differently
 *    the second time cannot move the connection. The URL's host name stays in the Host header
 *    and TLS (SNI and the certificate check). Redirects are never followed.
 */

/** A request the guard refuses; the message is GitLab's reason (`Requests to the local network are not allowed`). */
export class BlockedUrlError extends Error {}

/** Every address of a host name (tests inject one; by default the system's resolver). */
export type OutboundLookup = (hostname: string) => Promise<readonly string[]>

/** What the guard lets through. */
export interface OutboundPolicy {
  /** Local addresses may be reached (GitLab's `allow_local_requests_from_*` settings). */
  readonly allowLocal: boolean
  /** Hosts, addresses and ranges, each with an optional port, that may be local all the same (`outbound_local_requests_whitelist`). */
  readonly allowlist: readonly string[]
  readonly lookup?: OutboundLookup
}

/** GitLab's two settings that let a kind of request reach local addresses. */
export type LocalRequestsSetting =
  'allow_local_requests_from_web_hooks_and_services' | 'allow_local_requests_from_system_hooks'

/**
 * The instance's policy for a kind of request: imports, integrations and project or group
 * webhooks follow `allow_local_requests_from_web_hooks_and_services` (off by default), system
 * hooks `allow_local_requests_from_system_hooks` (on by default); both honour the allowlist.
 * The settings are read at each check, so a change applies to work already queued.
 */
export function outboundPolicy(
  ctx: ServerContext,
  setting: LocalRequestsSetting = 'allow_local_requests_from_web_hooks_and_services',
): OutboundPolicy {
  return {
    get allowLocal() {
      return ctx.settings.get(setting)
    },
    get allowlist() {
      return ctx.settings.get('outbound_local_requests_whitelist')
    },
    lookup: ctx.options.outboundLookup,
  }
}

/** A URL the guard let through, with the addresses a connection to it may use. */
export interface CheckedUrl {
  /** The URL to request (a trailing dot of the host name dropped). */
  readonly url: URL
  /** Host name or address, without brackets. */
  readonly host: string
  readonly port: number
  /** Every address the host resolved to, all checked: connections go to these and nowhere else. */
  readonly addresses: readonly string[]
}

const LOOKUP_TIMEOUT_MS = 15_000

/** An allowlist entry: an address range or a host name, each with an optional port. */
export type AllowlistEntry =
  | { readonly kind: 'range'; readonly range: IpRange; readonly port: number | null }
  | { readonly kind: 'domain'; readonly name: string; readonly port: number | null }

/**
 * One `outbound_local_requests_whitelist` entry in GitLab's forms (`example.com`, `127.0.0.1`,
 * `10.0.0.0/8`, `::1`, each optionally with `:port`, an IPv6 address then in brackets:
 * `[::1]:8080`), or null when the text is none of them. As in GitLab a name matches itself
 * only: no wildcards, no subdomains.
 */
export function parseAllowlistEntry(text: string): AllowlistEntry | null {
  const withPort = /^\[(.+)\]:(\d{1,5})$/.exec(text) ?? /^([^:]+):(\d{1,5})$/.exec(text)
  const address = withPort ? withPort[1] : text
  const port = withPort ? Number(withPort[2]) : null
  if (port !== null && (port < 1 || port > 65535)) return null
  const ipRange = parseRange(address)
  if (ipRange) return { kind: 'range', range: ipRange, port }
  if (!/^[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*\.?$/u.test(address)) return null
  // Unicode names compare in their ASCII form, as the URL standard writes a request's host.
  const name = domainToASCII(address).replace(/\.$/, '')
  return name === '' ? null : { kind: 'domain', name, port }
}

function allowlistEntries(allowlist: readonly string[]): AllowlistEntry[] {
  return allowlist.map(parseAllowlistEntry).filter((e): e is AllowlistEntry => e !== null)
}

function portMatches(entry: AllowlistEntry, port: number): boolean {
  return entry.port === null || entry.port === port
}

function domainAllowed(entries: readonly AllowlistEntry[], host: string, port: number): boolean {
  return entries.some((e) => e.kind === 'domain' && portMatches(e, port) && host === e.name)
}

function addressAllowed(entries: readonly AllowlistEntry[], ip: IpValue, port: number): boolean {
  return entries.some((e) => e.kind === 'range' && portMatches(e, port) && inRange(ip, e.range))
}

/** This machine's own addresses count as localhost, as in GitLab: a server may listen on any of them. */
function isOwnAddress(ip: IpValue): boolean {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .some((iface) => {
      const own = parseIp(iface.address)
      return own !== null && own.version === ip.version && own.value === ip.value
    })
}

/** Why `ip` is local, the range first (so 127.0.0.1 is a loopback address on every machine), or null. */
function localKind(ip: IpValue): LocalAddressKind | null {
  return localKindOf(ip) ?? (isOwnAddress(ip) ? 'localhost' : null)
}

/**
 * The URL as it will be requested, or the reason it cannot be. Whitespace and control
 * characters are refused rather than dropped as the URL standard does, so that no other
 * parser (git's, a log reader's) can read another host out of it.
 */
function parseOutboundUrl(raw: string): URL {
  if (/[\s\p{Cc}]/u.test(raw)) throw new BlockedUrlError('URI is invalid')
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new BlockedUrlError('URI is invalid')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BlockedUrlError('Only allowed schemes are http, https')
  // Credentials go in headers: in a URL they end up in logs and stored records.
  if (url.username !== '' || url.password !== '') throw new BlockedUrlError('Credentials in the URL are not allowed')
  // `localhost.` is `localhost`; git's libcurl would not match the pinned name with the dot.
  const host = url.hostname.replace(/\.+$/, '')
  if (host === '') throw new BlockedUrlError('Hostname or IP address invalid')
  url.hostname = host
  return url
}

const systemLookup: OutboundLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address)

async function resolve(host: string, lookup: OutboundLookup): Promise<readonly string[]> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), LOOKUP_TIMEOUT_MS)
  })
  const addresses = await Promise.race([lookup(host), timeout])
    .catch((): readonly string[] => [])
    .finally(() => clearTimeout(timer))
  if (addresses.length === 0 || addresses.some((a) => isIP(a) === 0))
    throw new BlockedUrlError('Host cannot be resolved or invalid')
  return addresses
}

/**
 * Checks `raw` against the policy and resolves its host once: the addresses returned are the
 * only ones a request to it may connect to. Throws BlockedUrlError with GitLab's reason.
 */
export async function checkOutboundUrl(raw: string, policy: OutboundPolicy): Promise<CheckedUrl> {
  const url = parseOutboundUrl(raw)
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port)
  const literal = isIP(host) !== 0
  if (!literal && !/^[a-z0-9]/.test(host)) throw new BlockedUrlError('Hostname or IP address invalid')
  const entries = allowlistEntries(policy.allowlist)
  // A host name on the allowlist may be local whatever it resolves to; an address must be on it itself.
  const checked = !policy.allowLocal && (literal || !domainAllowed(entries, host, port))
  if (checked && (host === 'localhost' || host.endsWith('.localhost')))
    throw new BlockedUrlError(LOCAL_ADDRESS_MESSAGES.localhost)
  const addresses = literal ? [host] : await resolve(host, policy.lookup ?? systemLookup)
  if (checked) {
    for (const address of addresses) {
      const ip = parseIp(address)
      const kind = ip && localKind(ip)
      if (ip && kind && !addressAllowed(entries, ip, port)) throw new BlockedUrlError(LOCAL_ADDRESS_MESSAGES[kind])
    }
  }
  return { url, host, port, addresses }
}

/** A Node lookup that answers the checked addresses and never asks a resolver. */
function pinnedLookup(addresses: readonly string[]): LookupFunction {
  return (_hostname, options, callback) => {
    const answers = addresses
      .map((address) => ({ address, family: isIP(address) }))
      .filter((a) => !options.family || a.family === options.family)
    if (answers.length === 0)
      callback(Object.assign(new Error('no checked address of that family'), { code: 'ENOTFOUND' }), [])
    else if (options.all) callback(null, answers)
    else callback(null, answers[0].address, answers[0].family)
  }
}

const NULL_BODY_STATUSES = new Set([204, 205, 304])

function toResponse(res: IncomingMessage): Response {
  const headers = new Headers()
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1])
  const status = res.statusCode ?? 0
  const nullBody = NULL_BODY_STATUSES.has(status)
  if (nullBody) res.resume()
  const body = nullBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>)
  return new Response(body, { status, statusText: res.statusMessage, headers })
}

/** An outbound request's method, headers and body. */
export interface OutboundRequest {
  readonly method?: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string | Uint8Array
  readonly signal?: AbortSignal
  /** Certificates to trust instead of the runtime's roots (PEM), for a server with a private CA. */
  readonly ca?: string
}

/**
 * Checks `raw` (`checkOutboundUrl`) and requests it, connecting to the checked addresses only.
 * Answers a fetch `Response`; a redirect comes back as it is, never followed (its target was
 * not checked). Throws BlockedUrlError when the guard refuses, the socket's error otherwise.
 */
export async function outboundFetch(raw: string, request: OutboundRequest, policy: OutboundPolicy): Promise<Response> {
  const target = await checkOutboundUrl(raw, policy)
  const options: RequestOptions & { ca?: string } = {
    method: request.method ?? 'GET',
    headers: request.headers,
    signal: request.signal,
    // A pooled socket could have been opened for another answer of the same name.
    agent: false,
    lookup: pinnedLookup(target.addresses),
    ca: request.ca,
  }
  return new Promise((resolve, reject) => {
    const onResponse = (res: IncomingMessage): void => {
      try {
        resolve(toResponse(res))
      } catch (error) {
        res.destroy()
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    }
    const req =
      target.url.protocol === 'https:'
        ? httpsRequest(target.url, options, onResponse)
        : httpRequest(target.url, options, onResponse)
    req.on('error', reject)
    req.end(request.body)
  })
}

/**
 * The git configuration that makes git's libcurl connect to the checked addresses of `target`
 * and nowhere else (`http.curloptResolve`, git 2.37+), as `[key, value]` pairs. An address
 * literal needs none: curl connects to it as it is.
 */
export function gitPinning(target: CheckedUrl): readonly (readonly [string, string])[] {
  if (isIP(target.host) !== 0) return []
  const addresses = target.addresses.map((a) => (isIP(a) === 6 ? `[${a}]` : a)).join(',')
  return [['http.curloptResolve', `${target.host}:${target.port}:${addresses}`]]
}
