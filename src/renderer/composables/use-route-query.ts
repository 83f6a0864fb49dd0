import type { LocationQuery } from 'vue-router'

/** vue-router's query (values may be null or arrays) as plain strings and string arrays. */
export function plainQuery(query: LocationQuery): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [key, value] of Object.entries(query)) {
    if (typeof value === 'string') out[key] = value
    else if (Array.isArray(value)) out[key] = value.filter((v): v is string => typeof v === 'string')
  }
  return out
}

/** A query string (`a=1&b=2`) as a route query object. */
export function queryObject(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search))
}
