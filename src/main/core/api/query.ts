/** A query value as the v4 API takes it: scalars, arrays (`labels[]=a`) and nested objects (`not[labels]=x`). */
export type QueryValue =
  string | number | boolean | null | undefined | Date | readonly QueryValue[] | { readonly [key: string]: QueryValue }
export type Query = { readonly [key: string]: QueryValue }

function scalar(value: string | number | boolean | Date): string {
  return value instanceof Date ? value.toISOString() : String(value)
}

function append(out: string[], key: string, value: QueryValue): void {
  if (value === undefined || value === null) return
  if (Array.isArray(value)) {
    for (const item of value as readonly QueryValue[]) append(out, `${key}[]`, item)
  } else if (typeof value === 'object' && !(value instanceof Date)) {
    for (const [k, v] of Object.entries(value)) append(out, `${key}[${k}]`, v)
  } else {
    out.push(`${encodeURIComponent(key)}=${encodeURIComponent(scalar(value as string | number | boolean | Date))}`)
  }
}

/**
 * Rails-style query string (what Grape parses): `{labels: ['a','b'], not: {labels: 'x'}}` →
 * `labels%5B%5D=a&labels%5B%5D=b&not%5Blabels%5D=x`. Null and undefined are left out. No leading `?`.
 */
export function encodeQuery(query: Query | undefined): string {
  if (query === undefined) return ''
  const out: string[] = []
  for (const [key, value] of Object.entries(query)) append(out, key, value)
  return out.join('&')
}
