import type { ApiClient } from '../api/client'
import { ForbiddenError, isAccountHeld, NetworkError, NotFoundError } from '../api/errors'
import type { Cache } from '../cache/cache'
import type { JsonObject } from '../cache/json'
import { KINDS, type NoteableKind } from '../cache/kinds'
import { NOTEABLE_PATHS } from './run'

const ITEM_PATHS: Readonly<Record<NoteableKind, (parent: number, iid: number) => string>> = {
  issue: (p, iid) => `/projects/${p}/issues/${iid}`,
  merge_request: (p, iid) => `/projects/${p}/merge_requests/${iid}`,
  epic: (g, iid) => `/groups/${g}/epics/${iid}`,
}

/**
 * Fetches one issue, merge request or epic and all its discussions into the cache (a detail
 * view opened online). Resolves `fresh` when the server answered, `stale` when it could not be
 * reached (the cached copy stands), `gone` when it answered 404 (the cached copy is removed).
 */
export async function refreshItem(
  cache: Cache,
  client: ApiClient,
  accountId: string,
  kind: NoteableKind,
  ref: { readonly id: number } | { readonly parentId: number; readonly iid: number },
  signal?: AbortSignal,
): Promise<'fresh' | 'stale' | 'gone'> {
  let parentId: number
  let iid: number
  if ('id' in ref) {
    const column = kind === 'epic' ? 'group_id' : 'project_id'
    const row = cache.db
      .prepare(`SELECT ${column} AS parent, iid FROM ${KINDS[kind].table} WHERE acct = ? AND id = ?`)
      .get(cache.acct(accountId), ref.id) as { parent: number; iid: number } | undefined
    if (row === undefined) return 'stale'
    parentId = row.parent
    iid = row.iid
  } else {
    parentId = ref.parentId
    iid = ref.iid
  }
  let item: JsonObject
  try {
    item = await client.get<JsonObject>(ITEM_PATHS[kind](parentId, iid), undefined, { signal })
  } catch (error) {
    // Unreachable, or the account's requests held: the cached copy, marked stale.
    if (error instanceof NetworkError || isAccountHeld(error)) return 'stale'
    // Only the item's own 404 says it is gone: a refused discussions list leaves it in place.
    if (error instanceof NotFoundError) {
      const column = kind === 'epic' ? 'group_id' : 'project_id'
      const id = cache.db
        .prepare(`SELECT id FROM ${KINDS[kind].table} WHERE acct = ? AND ${column} = ? AND iid = ?`)
        .pluck()
        .get(cache.acct(accountId), parentId, iid) as number | undefined
      if (id !== undefined) cache.remove(accountId, kind, [id])
      return 'gone'
    }
    throw error
  }
  try {
    const discussions: JsonObject[] = []
    for await (const d of client.paginate<JsonObject>(
      NOTEABLE_PATHS[kind](parentId, { id: item.id as number, iid }),
      {},
      { signal },
    ))
      discussions.push(d)
    cache.transaction(() => {
      cache.upsert(accountId, kind, [cache.withLabelDetails(accountId, kind, item)])
      cache.replaceDiscussions(accountId, kind, item.id as number, discussions)
    })
  } catch (error) {
    if (error instanceof NetworkError || isAccountHeld(error)) return 'stale'
    if (!(error instanceof NotFoundError || error instanceof ForbiddenError)) throw error
    cache.upsert(accountId, kind, [cache.withLabelDetails(accountId, kind, item)])
  }
  return 'fresh'
}
