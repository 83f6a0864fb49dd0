/**
 * GitLab's branch and tag search: `^term` matches a prefix, `term$` a suffix, both an exact
 * name, otherwise a substring; case-insensitive.
 */
export function matchesRefSearch(name: string, search: string): boolean {
  const n = name.toLowerCase()
  let s = search.toLowerCase()
  const prefix = s.startsWith('^')
  const suffix = s.endsWith('$')
  if (prefix) s = s.slice(1)
  if (suffix) s = s.slice(0, -1)
  if (prefix && suffix) return n === s
  if (prefix) return n.startsWith(s)
  if (suffix) return n.endsWith(s)
  return n.includes(s)
}
