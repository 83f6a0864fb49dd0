/*
 * `burrow://open?url=<a GitLab web URL>` links: the item's web URL (an issue, a merge request,
 * an epic or a file) turned into the app's own route for it, for an instance the user has an
 * account on. Nothing is added: a URL of any other instance is refused.
 */

export const DEEP_LINK_SCHEME = 'burrow:'

/** What a web URL points at, by path (the ids come from the instance, see resolveDeepLink). */
export type WebTarget =
  | { readonly kind: 'issue' | 'merge_request'; readonly projectPath: string; readonly iid: number }
  | { readonly kind: 'epic'; readonly groupPath: string; readonly iid: number }
  | { readonly kind: 'file'; readonly projectPath: string; readonly refAndPath: readonly string[] }

export interface DeepLinkAccount {
  readonly id: string
  readonly baseUrl: string
}

/** A GET of the REST API v4 through the account (core's `api:get`): the status and body, or null when it could not be read. */
export type ApiGet = (accountId: string, path: string) => Promise<{ status: number; body: unknown } | null>

export type DeepLinkResult =
  | { readonly ok: true; readonly accountId: string; readonly route: string }
  | { readonly ok: false; readonly message: string }

/** The first `burrow://` argument of a command line (a second launch's, or the first one's on Windows and Linux), or null. */
export function deepLinkFromArgv(argv: readonly string[]): string | null {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}//`)) ?? null
}

/** The web URL a `burrow://open?url=…` link carries, or why the link is not one. */
export function webUrlOfLink(link: string): URL | string {
  let parsed: URL
  try {
    parsed = new URL(link)
  } catch {
    return 'The link is not a URL.'
  }
  if (parsed.protocol !== DEEP_LINK_SCHEME || parsed.host !== 'open')
    return 'Burrow opens links of the form burrow://open?url=<address of an issue, merge request, epic or file>.'
  const target = parsed.searchParams.get('url')
  if (target === null || target === '') return 'The link names no address (burrow://open?url=…).'
  try {
    const web = new URL(target)
    if (web.protocol === 'https:' || web.protocol === 'http:') return web
  } catch {
    // below
  }
  return 'The link’s address is not an http(s) URL.'
}

/** The account whose instance serves `web` (same origin, and under its relative URL root), the longest root first. */
export function accountForWebUrl(
  web: URL,
  accounts: readonly DeepLinkAccount[],
): { account: DeepLinkAccount; path: string } | null {
  const candidates = accounts
    .map((account) => ({ account, base: safeUrl(account.baseUrl) }))
    .filter((c): c is { account: DeepLinkAccount; base: URL } => c.base !== null && c.base.origin === web.origin)
    .sort((a, b) => b.base.pathname.length - a.base.pathname.length)
  for (const { account, base } of candidates) {
    const root = base.pathname.replace(/\/+$/, '')
    if (root === '' || web.pathname === root || web.pathname.startsWith(`${root}/`))
      return { account, path: web.pathname.slice(root.length) }
  }
  return null
}

function safeUrl(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/** `/group/project/-/issues/12`, `/-/merge_requests/4`, `/groups/g/-/epics/2`, `/-/blob/ref/path` (or the older paths without `-`) → what they point at. */
export function parseWebPath(path: string): WebTarget | null {
  const segments = path
    .split('/')
    .filter((s) => s !== '')
    .map(decodeSegment)
  if (segments.some((s) => s === null)) return null
  const parts = segments as string[]
  const dash = parts.indexOf('-')
  const owner = dash >= 0 ? parts.slice(0, dash) : parts.slice(0, -2)
  const rest = dash >= 0 ? parts.slice(dash + 1) : parts.slice(-2)
  if (owner.length === 0) return null
  const [section, id] = rest
  const iid = id !== undefined && /^\d+$/.test(id) && rest.length === 2 ? Number(id) : null
  if (owner[0] === 'groups') {
    return section === 'epics' && iid !== null && owner.length > 1
      ? { kind: 'epic', groupPath: owner.slice(1).join('/'), iid }
      : null
  }
  if (owner.length < 2) return null
  const projectPath = owner.join('/')
  if ((section === 'issues' || section === 'work_items') && iid !== null) return { kind: 'issue', projectPath, iid }
  if (section === 'merge_requests' && iid !== null) return { kind: 'merge_request', projectPath, iid }
  if (section === 'blob' && dash >= 0 && rest.length >= 3)
    return { kind: 'file', projectPath, refAndPath: rest.slice(1) }
  return null
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

/** The id of the project or group at `path` on the instance, or null when it cannot be read. */
async function idOf(
  apiGet: ApiGet,
  accountId: string,
  kind: 'projects' | 'groups',
  path: string,
): Promise<number | null> {
  const answer = await apiGet(accountId, `/${kind}/${encodeURIComponent(path)}`)
  const id = answer?.status === 200 ? (answer.body as { id?: unknown } | null)?.id : undefined
  return typeof id === 'number' ? id : null
}

/**
 * Where `/-/blob/` splits into ref and file path: the longest leading run of segments that the
 * instance knows as a ref (a ref may hold `/`), else the first segment, as GitLab reads it.
 */
async function splitRef(
  apiGet: ApiGet,
  accountId: string,
  projectId: number,
  refAndPath: readonly string[],
): Promise<{ ref: string; path: string }> {
  for (let count = refAndPath.length - 1; count > 1; count--) {
    const ref = refAndPath.slice(0, count).join('/')
    const answer = await apiGet(accountId, `/projects/${projectId}/repository/commits/${encodeURIComponent(ref)}`)
    if (answer?.status === 200) return { ref, path: refAndPath.slice(count).join('/') }
  }
  return { ref: refAndPath[0] ?? '', path: refAndPath.slice(1).join('/') }
}

/** The app's route for a target on an account, reading the project's or group's id from the instance. */
async function routeFor(target: WebTarget, accountId: string, apiGet: ApiGet): Promise<string | null> {
  const account = encodeURIComponent(accountId)
  if (target.kind === 'epic') {
    const groupId = await idOf(apiGet, accountId, 'groups', target.groupPath)
    return groupId === null ? null : `/a/${account}/groups/${groupId}/epics/${target.iid}`
  }
  const projectId = await idOf(apiGet, accountId, 'projects', target.projectPath)
  if (projectId === null) return null
  const place = `/a/${account}/projects/${projectId}`
  if (target.kind !== 'file') return `${place}/${target.kind === 'issue' ? 'issues' : 'merge_requests'}/${target.iid}`
  const { ref, path } = await splitRef(apiGet, accountId, projectId, target.refAndPath)
  return `${place}/repository/blob?${new URLSearchParams({ ref, path }).toString()}`
}

/** A `burrow://open?url=…` link → the route that shows its item, or why it cannot be opened. */
export async function resolveDeepLink(
  link: string,
  accounts: readonly DeepLinkAccount[],
  apiGet: ApiGet,
): Promise<DeepLinkResult> {
  const web = webUrlOfLink(link)
  if (typeof web === 'string') return { ok: false, message: web }
  const match = accountForWebUrl(web, accounts)
  if (match === null)
    return { ok: false, message: `${web.origin} is not one of your accounts’ instances: add an account for it first.` }
  const target = parseWebPath(match.path)
  if (target === null)
    return { ok: false, message: `Burrow opens issues, merge requests, epics and files; ${web.href} is none of these.` }
  const route = await routeFor(target, match.account.id, apiGet)
  if (route === null) return { ok: false, message: `${web.href} could not be found on ${match.account.baseUrl}.` }
  return { ok: true, accountId: match.account.id, route }
}
