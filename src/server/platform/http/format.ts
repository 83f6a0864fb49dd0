/**
 * GitLab's API routes take an optional `.json` format suffix (`/api/v4/projects.json`,
 * `/api/v4/users/1.json`): the spec says it is not needed, so clients may send it or not. The
 * suffix is dropped from a path whose last segment is a word or a number, outside the
 * repository and protected-branch routes, whose file, branch and tag names may end in `.json`.
 */
export function stripJsonFormat(url: string): string {
  const q = url.indexOf('?')
  const path = q < 0 ? url : url.slice(0, q)
  if (!path.startsWith('/api/v4/') || !path.endsWith('.json')) return url
  if (path.includes('/repository/') || path.includes('/protected_branches/')) return url
  const last = path.slice(path.lastIndexOf('/') + 1, -'.json'.length)
  if (!/^(?:\d+|[a-z_]+)$/.test(last)) return url
  return path.slice(0, -'.json'.length) + (q < 0 ? '' : url.slice(q))
}
