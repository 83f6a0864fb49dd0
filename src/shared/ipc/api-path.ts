/**
 * The one check of every path the renderer hands core for a request to an account's instance:
 * `api:get`, `api:send` and its `invalidates`, and the path of `avatars:get`'s URL. Core sends
 * these with the account's credential, so a path must never leave the place it names: no
 * scheme or host, no query or fragment smuggled in, no backslash (URL parsers read it as `/`),
 * and no dot segment — also encoded, `%2e%2e`, which URL parsers resolve like `..` and would
 * climb out of /api/v4 (to `/api/graphql`, or another application under the same origin).
 */

/** A segment's characters: RFC 3986 `pchar`, with `%` only as part of an escape. */
const SEGMENT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+$/

const MAX_PATH = 2048

function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

/** The problem with the segments of an absolute path (`/a/b`), or null. */
function checkSegments(path: string, name: string): string | null {
  for (const segment of path.slice(1).split('/')) {
    if (segment === '') return `${name} must not contain empty segments`
    if (!SEGMENT.test(segment))
      return `${name} segments may hold only URL-safe characters and %-escapes (no query, fragment, spaces or backslashes)`
    const decoded = decodedSegment(segment)
    if (decoded === null) return `${name} holds a malformed %-escape`
    if (decoded === '.' || decoded === '..') return `${name} must not contain dot segments`
  }
  return null
}

/**
 * An API path: relative to /api/v4, starting with a single `/`, already URL-encoded
 * (`/projects/group%2Fapp/issues`). A message for the first problem, or null.
 */
export function checkApiPath(v: unknown, name = 'path'): string | null {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_PATH)
    return `${name} must be a string of 1 to ${MAX_PATH} characters`
  if (!v.startsWith('/') || v.startsWith('//')) return `${name} must be relative to /api/v4 and start with a single /`
  return checkSegments(v, name)
}

/** `http(s)://host[:port]` then an optional path and query, none of it holding a backslash or a space. */
const INSTANCE_URL = /^https?:\/\/[^/?#\\\s@]+(\/[^?#\\\s]*)?(\?[^#\\\s]*)?$/i

/**
 * A URL on an account's instance (an `avatar_url`): http(s), no credentials or fragment, and a
 * path that passes the same segment rules as an API path (or none at all). Whether it is on
 * the account's own instance is core's to check.
 */
export function checkInstanceUrl(v: unknown, name = 'url'): string | null {
  if (typeof v !== 'string' || v.length > MAX_PATH)
    return `${name} must be an http(s) URL of at most ${MAX_PATH} characters`
  const match = INSTANCE_URL.exec(v)
  if (!match) return `${name} must be an http(s) URL without credentials, fragment, spaces or backslashes`
  const path = match[1] ?? ''
  return path === '' || path === '/' ? null : checkSegments(path, `${name} path`)
}
