import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:https'
import { Readable } from 'node:stream'
import * as tls from 'node:tls'

/**
 * The parts of node:tls that read and set the trusted roots. `getCACertificates` (Node 22.15+)
 * and `setDefaultCACertificates` (Node 22.19+) exist in Electron 45's main process, not in
 * Node 20 (browser mode, tests), whose types lack them too.
 */
export interface CaStores {
  readonly rootCertificates: readonly string[]
  getCACertificates?(type: 'default' | 'system'): string[]
  setDefaultCACertificates?(certs: string[]): void
}

/** The runtime's node:tls, read through `CaStores` (its optional methods are checked before each use). */
const nodeTls: CaStores = tls

/**
 * The roots Burrow's HTTPS requests trust: the runtime's defaults (Node's bundled store, plus
 * NODE_EXTRA_CA_CERTS where the runtime lists them) and the operating system's trust store
 * (macOS Keychain, Windows certificate stores, the OpenSSL store on Linux) where the runtime
 * can read it. On Node 20 that is the bundled store alone.
 */
export function trustedRoots(stores: CaStores = nodeTls): string[] {
  const defaults = stores.getCACertificates?.('default') ?? [...stores.rootCertificates]
  const system = stores.getCACertificates?.('system') ?? []
  return [...new Set([...defaults, ...system])]
}

/**
 * Makes every TLS connection of the process (the global fetch included) trust `trustedRoots`,
 * so an instance whose certificate the OS trusts (an enterprise CA installed by IT) works
 * without a per-account CA file. Returns false where the runtime cannot (Node 20).
 */
export function trustSystemStore(stores: CaStores = nodeTls): boolean {
  if (stores.getCACertificates === undefined || stores.setDefaultCACertificates === undefined) return false
  stores.setDefaultCACertificates(trustedRoots(stores))
  return true
}

/**
 * A fetch for one account whose server certificate is signed by its own CA (a self-managed
 * instance with an internal CA): trusts `trustedRoots()` plus that CA, for this account only.
 * Never a global "ignore certificate errors".
 *
 * Built on node:https because Node 20's fetch takes a custom CA only through undici's `Agent`,
 * and undici is not a declared dependency of Burrow (only a transitive one).
 * Plain http: URLs go to the global fetch.
 */
export function fetchTrustingCa(caPem: string): typeof fetch {
  const agent = new Agent({ ca: [...trustedRoots(), caPem], keepAlive: true })
  const tlsFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.protocol !== 'https:') return fetch(input, init)
    return new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {}
      new Headers(init?.headers).forEach((value, key) => (headers[key] = value))
      const method = init?.method ?? 'GET'
      const req = request(url, { method, headers, agent, signal: init?.signal ?? undefined }, (res) => {
        const h = new Headers()
        for (const [key, value] of Object.entries(res.headers)) {
          if (value === undefined) continue
          for (const v of Array.isArray(value) ? value : [value]) h.append(key, v)
        }
        const status = res.statusCode ?? 502
        const noBody = status === 204 || status === 304 || method === 'HEAD'
        if (noBody) res.resume()
        resolve(
          new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
            status,
            statusText: res.statusMessage,
            headers: h,
          }),
        )
      })
      req.on('error', (error) => reject(init?.signal?.aborted ? init.signal.reason : error))
      const body = init?.body
      if (typeof body === 'string') req.end(body)
      else req.end()
    })
  }
  return tlsFetch as typeof fetch
}

/** The fetch for an account: the global one, or one trusting the account's CA file as well. */
export function fetchForCaFile(caFile: string | undefined): typeof fetch {
  return caFile === undefined ? fetch : fetchTrustingCa(readFileSync(caFile, 'utf8'))
}
