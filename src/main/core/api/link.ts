/**
 * Parses an RFC 8288 `Link` header (`<url>; rel="next", <url>; rel="last"`) into rel → URL.
 * A link may carry several space-separated rels.
 */
export function parseLinkHeader(header: string | null): Map<string, string> {
  const links = new Map<string, string>()
  if (header === null) return links
  const re = /<([^>]*)>((?:\s*;\s*[^;,]+)*)/g
  for (let m = re.exec(header); m !== null; m = re.exec(header)) {
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(m[2] ?? '')
    if (rel?.[1] === undefined) continue
    for (const name of rel[1].trim().split(/\s+/)) if (!links.has(name)) links.set(name.toLowerCase(), m[1] ?? '')
  }
  return links
}
