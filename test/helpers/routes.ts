/** A route as Fastify's `printRoutes` shows it. */
export interface PrintedRoute {
  readonly method: string
  /**
   * The template as Fastify prints it, e.g. `/api/v4/projects/:id/issues/:issue_iid`; a parameter
   * routes share in one tree node lists each name (`:epic_id|:epic_iid`).
   */
  readonly url: string
}

/** Method and URL of every route, from Fastify's printed radix tree (`printRoutes({ commonPrefix: false })`), HEAD twins left out. */
export function registeredRoutes(printed: string): PrintedRoute[] {
  const routes: PrintedRoute[] = []
  const stack: string[] = []
  for (const line of printed.split('\n')) {
    const m = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!m) continue
    const depth = m[1].length / 4
    stack.length = depth
    stack.push(m[2])
    for (const method of m[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push({ method, url: stack.join('') })
  }
  return routes
}

/**
 * True when a route table's `METHOD /path` (below /api/v4) names this registered route: the same
 * method and segments, a parameter matching any of the names Fastify prints for it.
 */
export function namesRoute(named: string, r: PrintedRoute): boolean {
  const [method, path] = named.split(' ')
  if (method !== r.method) return false
  const want = `/api/v4${path}`.split('/')
  const have = r.url.split('/')
  return (
    want.length === have.length &&
    want.every((seg, n) => seg === have[n] || (seg.startsWith(':') && have[n].split('|').includes(seg)))
  )
}
