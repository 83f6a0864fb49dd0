import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TLSSocket } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchAllRefs, remoteHeadBranch } from '../../src/server/platform/git/fetch-remote'
import { git } from '../../src/server/platform/git/git'
import {
  BlockedUrlError,
  checkOutboundUrl,
  gitPinning,
  outboundFetch,
  parseAllowlistEntry,
  type OutboundLookup,
  type OutboundPolicy,
} from '../../src/server/platform/outbound/outbound'
import { holdImports, importsIdle } from '../../src/server/modules/imports/service'
import { selfSignedCertificate } from '../helpers/certificates'
import { commitFiles, makeWorkRepo, sh } from '../helpers/git'
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server'
import {
  makeServer,
  ROOT_TOKEN,
  seedUser,
  startServer,
  type ListeningServer,
  type SeededUser,
  type TestServer,
} from '../helpers/server'

const API = '/api/v4'
type Json = Record<string, unknown>

/** A resolver that knows only the names given (never the system's: nothing here may leave the machine). */
function namesLookup(names: Readonly<Record<string, readonly string[]>>): OutboundLookup {
  return async (hostname) => names[hostname] ?? []
}

/** A resolver whose first answer is `first` and every later one `then`: DNS rebinding. */
function rebindingLookup(
  first: readonly string[],
  then: readonly string[],
): OutboundLookup & { readonly calls: string[] } {
  const calls: string[] = []
  const lookup = async (hostname: string) => {
    calls.push(hostname)
    return calls.length === 1 ? first : then
  }
  return Object.assign(lookup, { calls })
}

const refusing = (lookup: OutboundLookup = namesLookup({})): OutboundPolicy => ({
  allowLocal: false,
  allowlist: [],
  lookup,
})

async function refusal(url: string, policy: OutboundPolicy): Promise<string> {
  try {
    await checkOutboundUrl(url, policy)
  } catch (error) {
    if (error instanceof BlockedUrlError) return error.message
    throw error
  }
  return 'allowed'
}

const LOCALHOST = 'Requests to localhost are not allowed'
const LOOPBACK = 'Requests to loopback addresses are not allowed'
const LOCAL_NETWORK = 'Requests to the local network are not allowed'
const LINK_LOCAL = 'Requests to the link local network are not allowed'
const SHARED = 'Requests to the shared address space are not allowed'
const BROADCAST = 'Requests to the limited broadcast address are not allowed'
const RESERVED = 'Requests to reserved, multicast or documentation addresses are not allowed'

describe('outbound guard: checkOutboundUrl', () => {
  const names = namesLookup({
    'public.test': ['203.0.114.7'],
    'public6.test': ['2606:4700::1111'],
    'inside.test': ['10.1.2.3'],
    'half-inside.test': ['203.0.114.7', '127.0.0.1'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'metadata.test': ['169.254.169.254'],
    'intranet.test': ['10.9.9.9'],
    'a.corp.test': ['10.0.0.5'],
  })

  it.each([
    // Every spelling of 127.0.0.1 the URL standard reads as it.
    ['http://127.0.0.1/', LOOPBACK],
    ['http://2130706433/', LOOPBACK],
    ['http://0177.0.0.1/', LOOPBACK],
    ['http://017700000001/', LOOPBACK],
    ['http://0x7f.1/', LOOPBACK],
    ['http://0x7f000001/', LOOPBACK],
    ['http://127.1/', LOOPBACK],
    ['http://127.0.0.1./', LOOPBACK],
    ['http://127.0.0.2:8080/', LOOPBACK],
    // IPv4 addresses inside IPv6 ones: mapped, compatible, NAT64, 6to4.
    ['http://[::ffff:127.0.0.1]/', LOOPBACK],
    ['http://[::ffff:7f00:1]/', LOOPBACK],
    ['http://[0:0:0:0:0:ffff:127.0.0.1]/', LOOPBACK],
    ['http://[::127.0.0.1]/', LOOPBACK],
    ['http://[64:ff9b::7f00:1]/', LOOPBACK],
    ['http://[2002:7f00:1::]/', LOOPBACK],
    ['http://[::ffff:10.0.0.1]/', LOCAL_NETWORK],
    ['http://[::1]/', LOOPBACK],
    // localhost by name, in any case, with a trailing dot, percent-encoded or in IDNA disguise, and its subdomains.
    ['http://localhost/', LOCALHOST],
    ['http://LOCALHOST./', LOCALHOST],
    ['http://%6c%6fcalhost/', LOCALHOST],
    ['http://ⓛocalhost/', LOCALHOST],
    ['http://api.burrow.localhost:3000/', LOCALHOST],
    // Unspecified addresses.
    ['http://0/', LOCALHOST],
    ['http://0.0.0.0/', LOCALHOST],
    ['http://[::]/', LOCALHOST],
    // Private, link-local, shared, broadcast, multicast and reserved ranges; the cloud metadata services.
    ['http://10.0.0.1/', LOCAL_NETWORK],
    ['http://172.16.0.1/', LOCAL_NETWORK],
    ['http://172.31.255.255/', LOCAL_NETWORK],
    ['http://192.168.1.1/', LOCAL_NETWORK],
    ['http://[fc00::1]/', LOCAL_NETWORK],
    ['http://[fd00:ec2::254]/', LOCAL_NETWORK],
    ['http://169.254.169.254/', LINK_LOCAL],
    ['http://[fe80::1]/', LINK_LOCAL],
    ['http://100.64.0.1/', SHARED],
    ['http://100.100.100.200/', SHARED],
    ['http://255.255.255.255/', BROADCAST],
    ['http://192.0.0.192/', RESERVED],
    ['http://224.0.0.1/', RESERVED],
    ['http://240.0.0.1/', RESERVED],
    ['http://[ff02::1]/', RESERVED],
    // Names whose answers include a local address: any one is enough.
    ['http://inside.test/', LOCAL_NETWORK],
    ['http://half-inside.test/', LOOPBACK],
    ['http://mapped.test/', LOOPBACK],
    ['http://metadata.test/latest/meta-data/', LINK_LOCAL],
    // What is refused before any address is looked at.
    ['http://nowhere.test/', 'Host cannot be resolved or invalid'],
    ['ftp://public.test/', 'Only allowed schemes are http, https'],
    ['file:///etc/passwd', 'Only allowed schemes are http, https'],
    ['gopher://public.test/', 'Only allowed schemes are http, https'],
    ['http://user:secret@public.test/', 'Credentials in the URL are not allowed'],
    ['http://public.test@127.0.0.1/', 'Credentials in the URL are not allowed'],
    ['http://-oproxy.test/', 'Hostname or IP address invalid'],
    ['http://public.test\n.evil/', 'URI is invalid'],
    ['http://public.\ttest/', 'URI is invalid'],
    ['not a url', 'URI is invalid'],
  ])('refuses %s: %s', async (url, message) => {
    expect(await refusal(url, refusing(names))).toBe(message)
  })

  it('lets public addresses and names through with every address they resolved to, the trailing dot dropped', async () => {
    const checked = await checkOutboundUrl('https://public.test.:8443/api/v4?x=1', refusing(names))
    expect([checked.url.href, checked.host, checked.port, checked.addresses]).toEqual([
      'https://public.test:8443/api/v4?x=1',
      'public.test',
      8443,
      ['203.0.114.7'],
    ])
    expect((await checkOutboundUrl('http://public6.test/', refusing(names))).addresses).toEqual(['2606:4700::1111'])
    expect((await checkOutboundUrl('http://[2606:4700::1111]/', refusing(names))).addresses).toEqual([
      '2606:4700::1111',
    ])
    expect((await checkOutboundUrl('http://172.32.0.1/', refusing(names))).addresses).toEqual(['172.32.0.1'])
    // A backslash ends the host for the URL standard: the host is public.test, not 127.0.0.1.
    expect((await checkOutboundUrl('http://public.test\\@127.0.0.1/', refusing(names))).host).toBe('public.test')
  })

  it('lets local addresses through when local requests are allowed', async () => {
    const allowing: OutboundPolicy = { allowLocal: true, allowlist: [], lookup: names }
    expect((await checkOutboundUrl('http://127.0.0.1:3000/', allowing)).addresses).toEqual(['127.0.0.1'])
    expect((await checkOutboundUrl('http://inside.test/', allowing)).addresses).toEqual(['10.1.2.3'])
    // Scheme, credentials and resolution still count.
    expect(await refusal('file:///etc/passwd', allowing)).toBe('Only allowed schemes are http, https')
    expect(await refusal('http://nowhere.test/', allowing)).toBe('Host cannot be resolved or invalid')
  })

  it('lets local hosts on the allowlist through: addresses, ranges and names (exactly), each with an optional port', async () => {
    const policy = (allowlist: string[]): OutboundPolicy => ({ allowLocal: false, allowlist, lookup: names })
    expect(await refusal('http://127.0.0.1/', policy(['127.0.0.1']))).toBe('allowed')
    expect(await refusal('http://[::ffff:127.0.0.1]/', policy(['127.0.0.1']))).toBe('allowed')
    expect(await refusal('http://127.0.0.2/', policy(['127.0.0.1']))).toBe(LOOPBACK)
    expect(await refusal('http://10.200.0.1/', policy(['10.0.0.0/8']))).toBe('allowed')
    expect(await refusal('http://192.168.0.1/', policy(['10.0.0.0/8']))).toBe(LOCAL_NETWORK)
    expect(await refusal('http://127.0.0.1:8080/', policy(['127.0.0.1:8080']))).toBe('allowed')
    expect(await refusal('http://127.0.0.1:8081/', policy(['127.0.0.1:8080']))).toBe(LOOPBACK)
    expect(await refusal('http://[::1]:8080/', policy(['[::1]:8080']))).toBe('allowed')
    expect(await refusal('http://intranet.test/', policy(['intranet.test']))).toBe('allowed')
    expect(await refusal('http://inside.test/', policy(['intranet.test']))).toBe(LOCAL_NETWORK)
    expect(await refusal('http://a.corp.test/', policy(['corp.test']))).toBe(LOCAL_NETWORK)
    expect(await refusal('http://intranet.test:8080/', policy(['intranet.test:8080']))).toBe('allowed')
    expect(await refusal('http://intranet.test:8081/', policy(['intranet.test:8080']))).toBe(LOCAL_NETWORK)
    expect(await refusal('http://localhost:3000/', policy(['localhost:3000']))).toBe(
      'Host cannot be resolved or invalid',
    )
    // An address entry never allows a name to be localhost.
    expect(await refusal('http://localhost/', policy(['127.0.0.1']))).toBe(LOCALHOST)
  })

  it('reads allowlist entries in GitLab’s forms and nothing else', () => {
    expect(
      ['example.com', 'example.com:8080', '127.0.0.1', '10.0.0.0/8', '::1', '[::1]:8080', 'fd00::/8'].map(
        (e) => parseAllowlistEntry(e)?.kind,
      ),
    ).toEqual(['domain', 'domain', 'range', 'range', 'range', 'range', 'range'])
    expect(parseAllowlistEntry('ëxample.com')).toEqual({ kind: 'domain', name: 'xn--xample-ova.com', port: null })
    // GitLab has no wildcards: `*.example.com` is refused rather than quietly matching nothing.
    expect(
      ['not a host', 'http://example.com', '10.0.0.0/33', 'example.com:99999', '*.example.com', '', 'a..b'].map(
        parseAllowlistEntry,
      ),
    ).toEqual([null, null, null, null, null, null, null])
  })

  it('pins git to the checked addresses with http.curloptResolve, IPv6 ones in brackets; an address literal needs no pin', async () => {
    const lookup = namesLookup({ 'git.test': ['203.0.114.7', '2606:4700::1111'] })
    expect(gitPinning(await checkOutboundUrl('https://git.test/a.git', refusing(lookup)))).toEqual([
      ['http.curloptResolve', 'git.test:443:203.0.114.7,[2606:4700::1111]'],
    ])
    expect(gitPinning(await checkOutboundUrl('http://203.0.114.7:8080/a.git', refusing(lookup)))).toEqual([])
  })
})

/** A plain HTTP server on 127.0.0.1 that records what reached it. */
interface RecordingServer {
  readonly port: number
  readonly requests: {
    readonly url: string
    readonly host: string | undefined
    readonly servername?: string | false | null
  }[]
  close(): Promise<void>
}

async function listen(server: Server, requests: RecordingServer['requests']): Promise<RecordingServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

function answer(req: IncomingMessage, res: ServerResponse): void {
  if (req.url === '/moved') {
    res.writeHead(302, { location: '/elsewhere' }).end()
    return
  }
  res.writeHead(200, { 'content-type': 'application/json', 'x-seen': 'yes' }).end(JSON.stringify({ path: req.url }))
}

describe('outbound guard: outboundFetch connects to the checked address only', () => {
  let http: RecordingServer
  let https: RecordingServer
  const certificate = selfSignedCertificate('secure.burrow.test')

  beforeAll(async () => {
    const seen: RecordingServer['requests'][number][] = []
    http = await listen(
      createServer((req, res) => {
        seen.push({ url: req.url ?? '', host: req.headers.host })
        answer(req, res)
      }),
      seen,
    )
    const seenTls: RecordingServer['requests'][number][] = []
    https = await listen(
      createTlsServer({ key: certificate.key, cert: certificate.certificate }, (req, res) => {
        seenTls.push({ url: req.url ?? '', host: req.headers.host, servername: (req.socket as TLSSocket).servername })
        answer(req, res)
      }),
      seenTls,
    )
  })
  afterAll(async () => {
    await http.close()
    await https.close()
  })

  it('refuses a local server while local requests are not allowed, and sends it nothing', async () => {
    const before = http.requests.length
    await expect(outboundFetch(`http://127.0.0.1:${http.port}/`, {}, refusing())).rejects.toThrow(
      new BlockedUrlError(LOOPBACK),
    )
    await expect(outboundFetch(`http://[::ffff:7f00:1]:${http.port}/`, {}, refusing())).rejects.toThrow(
      new BlockedUrlError(LOOPBACK),
    )
    expect(http.requests.length).toBe(before)
  })

  it('reaches the first, checked address although the name answers another the second time', async () => {
    const lookup = rebindingLookup(['127.0.0.1'], ['127.0.0.2'])
    const res = await outboundFetch(
      `http://rebind.burrow.test:${http.port}/first`,
      { headers: { accept: 'application/json' } },
      { allowLocal: true, allowlist: [], lookup },
    )
    expect([res.status, res.headers.get('x-seen'), await res.json()]).toEqual([200, 'yes', { path: '/first' }])
    expect(lookup.calls).toEqual(['rebind.burrow.test'])
    expect(http.requests.at(-1)).toEqual({ url: '/first', host: `rebind.burrow.test:${http.port}` })
  })

  it('with local requests refused, a name that first answers an allowed address cannot be rebound to a refused one', async () => {
    const lookup = rebindingLookup(['127.0.0.1'], ['127.0.0.2'])
    const policy: OutboundPolicy = { allowLocal: false, allowlist: ['127.0.0.1'], lookup }
    const res = await outboundFetch(`http://rebind.burrow.test:${http.port}/allowlisted`, {}, policy)
    expect(res.status).toBe(200)
    // The next request looks the name up afresh and is refused: its answer is checked too.
    await expect(outboundFetch(`http://rebind.burrow.test:${http.port}/again`, {}, policy)).rejects.toThrow(
      new BlockedUrlError(LOOPBACK),
    )
    expect(http.requests.map((r) => r.url)).toContain('/allowlisted')
    expect(http.requests.map((r) => r.url)).not.toContain('/again')
  })

  it('never follows a redirect: the 3xx comes back as it is', async () => {
    const res = await outboundFetch(`http://127.0.0.1:${http.port}/moved`, {}, { allowLocal: true, allowlist: [] })
    expect([res.status, res.headers.get('location')]).toEqual([302, '/elsewhere'])
    expect(http.requests.map((r) => r.url)).not.toContain('/elsewhere')
  })

  it('sends the method, headers and body it is given', async () => {
    const res = await outboundFetch(
      `http://127.0.0.1:${http.port}/hook`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
      { allowLocal: true, allowlist: [] },
    )
    expect(res.status).toBe(200)
  })

  it('keeps the host name for TLS: SNI and the certificate check use it while the connection goes to the checked address', async () => {
    const lookup = namesLookup({ 'secure.burrow.test': ['127.0.0.1'], 'other.burrow.test': ['127.0.0.1'] })
    const policy: OutboundPolicy = { allowLocal: true, allowlist: [], lookup }
    const res = await outboundFetch(
      `https://secure.burrow.test:${https.port}/tls`,
      { ca: certificate.certificate },
      policy,
    )
    expect(await res.json()).toEqual({ path: '/tls' })
    expect(https.requests.at(-1)).toEqual({
      url: '/tls',
      host: `secure.burrow.test:${https.port}`,
      servername: 'secure.burrow.test',
    })
    // Same address, another name: the certificate does not match it.
    await expect(
      outboundFetch(`https://other.burrow.test:${https.port}/tls`, { ca: certificate.certificate }, policy),
    ).rejects.toThrow(/does not match|altnames/i)
  })
})

describe('outbound guard: git fetches connect to the checked address only', () => {
  let root: string
  let work: string
  let server: GitHttpServer
  let port: string
  const account = { user: 'svc', password: 'git-secret' }
  const credentials = { username: account.user, password: account.password }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'burrow-outbound-git-'))
    work = makeWorkRepo()
    await sh(work, 'checkout', '--quiet', '-b', 'trunk')
    commitFiles(work, { 'README.md': '# pinned\n' }, 'Start')
    const bare = join(root, 'pinned.git')
    await sh(root, 'clone', '--quiet', '--bare', work, bare)
    await sh(bare, 'symbolic-ref', 'HEAD', 'refs/heads/trunk')
    server = await startGitHttpServer(root, account)
    port = new URL(server.url).port
  })
  afterAll(async () => {
    await server.close()
    rmSync(root, { recursive: true, force: true })
    rmSync(work, { recursive: true, force: true })
  })

  it('ls-remote and fetch reach the first, checked address of a name git itself cannot resolve, whatever the name answers later', async () => {
    const lookup = rebindingLookup(['127.0.0.1'], ['127.0.0.2'])
    const remote = await checkOutboundUrl(`http://git.burrow.test:${port}/pinned.git`, {
      allowLocal: true,
      allowlist: [],
      lookup,
    })
    expect(await remoteHeadBranch(remote, credentials)).toBe('trunk')
    const gitDir = mkdtempSync(join(tmpdir(), 'burrow-outbound-fetch-'))
    try {
      await git(['init', '--quiet', '--bare', gitDir])
      await fetchAllRefs(gitDir, remote, credentials)
      expect((await git(['for-each-ref', '--format=%(refname)'], { gitDir })).stdout.toString().trim()).toBe(
        'refs/heads/trunk',
      )
    } finally {
      rmSync(gitDir, { recursive: true, force: true })
    }
    expect(lookup.calls).toEqual(['git.burrow.test'])
    expect(server.requests.some((r) => r.path === '/pinned.git/git-upload-pack')).toBe(true)
  })
})

/**
 * The callers: imports from a second Burrow Server on 127.0.0.1 are refused under GitLab's
 * default settings and go through once an administrator allows local requests (or lists the
 * source); the background job checks again with the settings of when it runs.
 */
describe('outbound guard: the import routes', () => {
  let source: ListeningServer
  let target: TestServer
  let owner: SeededUser
  let importer: SeededUser
  let projectId: number

  const tgt = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json) =>
    target.request(token, { method, url: `${API}${url}`, payload })
  const settings = (payload: Json) => tgt(ROOT_TOKEN, 'PUT', '/application/settings', payload)
  const gitServer = (url: string, newName: string) =>
    tgt(importer.token, 'POST', '/import/git_server', {
      git_server_url: url,
      git_server_username: owner.user.username,
      personal_access_token: owner.token,
      git_server_project: owner.user.username,
      git_server_repo: 'origin',
      new_name: newName,
    })
  const hostedGit = (url: string, newName: string) =>
    tgt(importer.token, 'POST', '/import/hosted_git', {
      custom_hostname: url,
      personal_access_token: owner.token,
      repo_id: projectId,
      target_namespace: importer.user.username,
      new_name: newName,
    })
  const projectCount = async () => ((await tgt(ROOT_TOKEN, 'GET', '/projects?per_page=100')).json() as Json[]).length
  const importOf = async (id: number) => (await tgt(importer.token, 'GET', `/projects/${id}/import`)).json() as Json

  beforeAll(async () => {
    source = await startServer()
    owner = seedUser(source, { username: 'origin_owner' })
    projectId = (
      await source.request(owner.token, {
        method: 'POST',
        url: `${API}/projects`,
        payload: { name: 'origin', initialize_with_readme: true },
      })
    ).json().id
    // `source.burrow.test` is known only to the guard's lookup: git and Node could not resolve it themselves.
    target = await makeServer({
      outboundLookup: namesLookup({ 'source.burrow.test': ['127.0.0.1'], 'inside.burrow.test': ['10.20.30.40'] }),
    })
    importer = seedUser(target, { username: 'guarded_importer' })
  })
  afterAll(async () => {
    await target.close()
    await source.close()
  })

  it('has GitLab’s defaults: local requests refused for hooks, services and imports, allowed for system hooks, no allowlist', async () => {
    expect((await tgt(ROOT_TOKEN, 'GET', '/application/settings')).json()).toMatchObject({
      allow_local_requests_from_web_hooks_and_services: false,
      allow_local_requests_from_system_hooks: true,
      outbound_local_requests_whitelist: [],
    })
  })

  it('refuses every spelling of a loopback source with 400 Invalid URL and creates nothing', async () => {
    const port = new URL(source.url).port
    const before = await projectCount()
    for (const url of [
      source.url,
      `http://localhost:${port}`,
      `http://2130706433:${port}`,
      `http://0x7f.1:${port}`,
      `http://[::ffff:127.0.0.1]:${port}`,
      `http://[::ffff:7f00:1]:${port}`,
      `http://source.burrow.test:${port}`,
      'http://inside.burrow.test',
    ]) {
      const git = await gitServer(url, 'refused')
      expect([url, git.statusCode, git.json()]).toEqual([url, 400, { errors: `Invalid URL: ${url}` }])
      const hosted = await hostedGit(url, 'refused')
      expect([url, hosted.statusCode, hosted.json()]).toEqual([url, 400, { errors: `Invalid URL: ${url}` }])
    }
    expect(await projectCount()).toBe(before)
  })

  it('imports from the local source once an administrator allows local requests, through a name only the guard resolves', async () => {
    expect((await settings({ allow_local_requests_from_web_hooks_and_services: true })).statusCode).toBe(200)
    try {
      const url = `http://source.burrow.test:${new URL(source.url).port}`
      const git = await gitServer(url, 'by-git')
      const hosted = await hostedGit(url, 'by-api')
      expect([git.statusCode, hosted.statusCode]).toEqual([201, 201])
      await importsIdle(target.app.burrow)
      expect(await importOf(git.json().id)).toMatchObject({ import_status: 'finished', import_error: null })
      expect(await importOf(hosted.json().id)).toMatchObject({ import_status: 'finished', import_error: null })
      const branches = (await tgt(importer.token, 'GET', `/projects/${git.json().id}/repository/branches`)).json() as {
        name: string
      }[]
      expect(branches.map((b) => b.name)).toEqual(['main'])
    } finally {
      await settings({ allow_local_requests_from_web_hooks_and_services: false })
    }
  })

  it('imports from a source on the allowlist (its address and port) while local requests stay refused', async () => {
    const port = new URL(source.url).port
    expect(
      (await settings({ outbound_local_requests_whitelist: [`127.0.0.1:${port}`] })).json()
        .outbound_local_requests_whitelist,
    ).toEqual([`127.0.0.1:${port}`])
    try {
      const res = await gitServer(source.url, 'allowlisted')
      expect(res.statusCode).toBe(201)
      await importsIdle(target.app.burrow)
      expect(await importOf(res.json().id)).toMatchObject({ import_status: 'finished' })
      expect((await gitServer(`http://127.0.0.2:${port}`, 'other-loopback')).statusCode).toBe(400)
    } finally {
      await settings({ outbound_local_requests_whitelist: [] })
    }
  })

  it('takes the allowlist as an array or as text separated by commas, semicolons or white space, and refuses entries that are no host, address or range', async () => {
    expect(
      (await settings({ outbound_local_requests_whitelist: 'a.test, 10.0.0.0/8 ;[::1]:80\nb.test' })).json()
        .outbound_local_requests_whitelist,
    ).toEqual(['a.test', '10.0.0.0/8', '[::1]:80', 'b.test'])
    const bad = await settings({ outbound_local_requests_whitelist: ['a.test', 'http://b.test/'] })
    expect([bad.statusCode, bad.json()]).toEqual([400, { error: 'outbound_local_requests_whitelist is invalid' }])
    expect((await tgt(ROOT_TOKEN, 'GET', '/application/settings')).json().outbound_local_requests_whitelist).toEqual([
      'a.test',
      '10.0.0.0/8',
      '[::1]:80',
      'b.test',
    ])
    await settings({ outbound_local_requests_whitelist: [] })
  })

  it('the job checks again when it runs: an import accepted while local requests were allowed fails once they are not', async () => {
    await settings({ allow_local_requests_from_web_hooks_and_services: true })
    const release = holdImports(target.app.burrow)
    let id: number
    try {
      const res = await gitServer(source.url, 'checked-twice')
      expect(res.statusCode).toBe(201)
      id = res.json().id
    } finally {
      await settings({ allow_local_requests_from_web_hooks_and_services: false })
      release()
    }
    await importsIdle(target.app.burrow)
    expect(await importOf(id)).toMatchObject({
      import_status: 'failed',
      import_error: `Could not fetch the repository: ${LOOPBACK}`,
    })
  })
})
