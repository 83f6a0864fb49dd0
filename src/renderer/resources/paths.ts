import type { ApiBodyValue, ApiQueryValue } from '../../shared/ipc/api'
import type { Filter, FilterValue, ResourceContext, ResourceDescription } from './types'

export type Item = Readonly<Record<string, unknown>>

/** Thrown when a template needs a context the panel does not have (no project chosen). */
export class MissingContextError extends Error {
  constructor(
    readonly missing: 'project' | 'group' | 'field',
    detail: string,
  ) {
    super(detail)
    this.name = 'MissingContextError'
  }
}

/** The value at a dotted path (`certificate.expiration`), or undefined. */
export function valueAt(item: unknown, path: string): unknown {
  let current: unknown = item
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[part]
  }
  return current
}

/**
 * Fills a path template: `:project`, `:group`, `:user` from the context, `{field}` from the item,
 * each URL-encoded (a protected branch `release/*` becomes `release%2F*`).
 */
export function fillPath(template: string, context: ResourceContext, item: Item | null = null): string {
  return template
    .replace(/:(project|group|user)\b/g, (_, name: 'project' | 'group' | 'user') => {
      const value = name === 'project' ? context.projectId : name === 'group' ? context.groupId : context.userId
      if (value === null || value === undefined)
        throw new MissingContextError(name === 'user' ? 'field' : name, `Choose a ${name} first.`)
      return encodeURIComponent(String(value))
    })
    .replace(/\{([\w.]+)\}/g, (_, field: string) => {
      const value = item === null ? undefined : valueAt(item, field)
      if (value === undefined || value === null || value === '')
        throw new MissingContextError('field', `The item has no ${field}.`)
      return encodeURIComponent(String(value))
    })
}

/** A fixed value of `:user`, `:project` or `:group` filled from the context (a number when it is one); other values unchanged. */
function contextValue<T>(value: T, context: ResourceContext): T | string | number {
  if (typeof value !== 'string' || !/^:(user|project|group)$/.test(value)) return value
  const filled = decodeURIComponent(fillPath(value, context))
  return /^\d+$/.test(filled) ? Number(filled) : filled
}

/** The list's fixed query with `:user`, `:project` and `:group` values filled from the context (`user_id=:user`). */
export function fixedQuery(
  fixed: Readonly<Record<string, string | number | boolean>> = {},
  context: ResourceContext,
): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(fixed).map(([name, value]) => [name, contextValue(value, context)]))
}

/** An action's fixed body with `:user`, `:project` and `:group` values filled from the context (`target_project_id: ':project'`). */
export function fixedBody(
  fixed: { readonly [key: string]: ApiBodyValue } = {},
  context: ResourceContext,
): Record<string, ApiBodyValue> {
  return Object.fromEntries(Object.entries(fixed).map(([name, value]) => [name, contextValue(value, context)]))
}

/**
 * The GETs whose saved copies a write on `item` makes outdated besides those core works out from
 * the written path: the resource's list and the item's detail (`/projects/7/runners` and
 * `/runners/3` after pausing runner 3 from a project). Templates the context cannot fill are left out.
 */
export function outdatedPaths(description: ResourceDescription, context: ResourceContext, item: Item | null): string[] {
  const out: string[] = []
  for (const template of [
    description.list?.path,
    description.singleton?.path,
    item === null ? undefined : description.detail?.path,
  ]) {
    if (template === undefined) continue
    try {
      out.push(fillPath(template, context, item))
    } catch (e) {
      if (!(e instanceof MissingContextError)) throw e
    }
  }
  return [...new Set(out)]
}

/** The identifying value of an item in routes (`id`, or the description's `list.key`). */
export function itemKey(description: ResourceDescription, item: Item): string {
  const value = valueAt(item, description.list?.key ?? 'id')
  return value === undefined || value === null ? '' : String(value)
}

/** A stand-in item holding only the key, to fill a detail path from a route (`/runners/{id}` ← `/admin/runners/7`). */
export function keyItem(description: ResourceDescription, key: string): Item {
  const field = description.list?.key ?? 'id'
  return { [field]: /^\d+$/.test(key) && field === 'id' ? Number(key) : key }
}

/** The name of an item in headings and confirmations. */
export function itemTitle(description: ResourceDescription, item: Item): string {
  if (description.titleOf !== undefined) return description.titleOf(item)
  const value = valueAt(item, description.titleField ?? description.list?.key ?? 'id')
  return value === undefined || value === null ? description.singular : String(value)
}

function isEmpty(value: FilterValue | undefined): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    value === false ||
    (Array.isArray(value) && value.length === 0)
  )
}

/**
 * The list's query: its fixed parameters, then each filter with a value under the API's own
 * parameter name. Empty filters are left out; flags are sent only as `true`; datetimes as ISO.
 */
export function listQuery(
  filters: readonly Filter[],
  values: Readonly<Record<string, FilterValue>>,
  fixed: Readonly<Record<string, string | number | boolean>> = {},
): Record<string, ApiQueryValue> {
  const query: Record<string, ApiQueryValue> = { ...fixed }
  for (const filter of filters) {
    const value = values[filter.param]
    if (isEmpty(value)) continue
    if (filter.kind === 'search' && filter.minLength !== undefined && String(value).trim().length < filter.minLength)
      continue
    switch (filter.kind) {
      case 'flag':
        query[filter.param] = true
        break
      case 'tags':
        query[filter.param] = Array.isArray(value)
          ? [...value]
          : String(value)
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
        break
      case 'number':
        query[filter.param] = Number(value)
        break
      case 'datetime':
        query[filter.param] = typeof value === 'number' ? new Date(value).toISOString() : String(value)
        break
      case 'date':
        query[filter.param] =
          typeof value === 'number' ? new Date(value).toISOString().slice(0, 10) : String(value).slice(0, 10)
        break
      default:
        query[filter.param] = typeof value === 'boolean' || typeof value === 'number' ? value : String(value)
    }
  }
  return query
}

/** Filter values read back from a route query (strings), typed by each filter's kind. */
export function filtersFromRoute(
  filters: readonly Filter[],
  routeQuery: Readonly<Record<string, unknown>>,
): Record<string, FilterValue> {
  const values: Record<string, FilterValue> = {}
  for (const filter of filters) {
    const raw = routeQuery[filter.param]
    const text = Array.isArray(raw)
      ? raw.filter((x): x is string => typeof x === 'string')
      : typeof raw === 'string'
        ? raw
        : null
    if (text === null || (Array.isArray(text) && text.length === 0)) continue
    if (filter.kind === 'flag') values[filter.param] = text === 'true'
    else if (filter.kind === 'tags') values[filter.param] = Array.isArray(text) ? text : text.split(',').filter(Boolean)
    else if (filter.kind === 'number') values[filter.param] = Number(text)
    else if (filter.kind === 'select') {
      const option = filter.options.find((o) => String(o.value) === String(text))
      if (option !== undefined) values[filter.param] = option.value
    } else values[filter.param] = Array.isArray(text) ? (text[0] ?? null) : text
  }
  return values
}

/** Filter values as a route query (strings), so a list's filters survive going to a detail and back. */
export function filtersToRoute(
  filters: readonly Filter[],
  values: Readonly<Record<string, FilterValue>>,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const filter of filters) {
    const value = values[filter.param]
    if (isEmpty(value)) continue
    out[filter.param] = Array.isArray(value) ? value.join(',') : String(value)
  }
  return out
}
