import type { IpcHandlers } from '../dispatch'
import type { Accounts } from '../accounts/accounts'
import type { Cache } from '../cache/cache'
import { CachedGet } from '../cache/http-cache'
import { blockedIssueIds } from '../cache/issue-links'
import { CacheReader } from '../cache/lists'
import type { CachedList } from '../../../shared/ipc/cache'
import type { NoteableKind } from '../cache/kinds'
import { searchCache } from '../cache/search'
import { refreshItem } from './refresh'
import type { SyncService } from './service'

/** The cache and sync channels of the contract (src/shared/ipc/cache.ts). */
type CacheChannels =
  | 'sync:start'
  | 'sync:cancel'
  | 'sync:status'
  | 'sync:set-scope'
  | 'sync:get-scope'
  | 'issues:list'
  | 'issues:get'
  | 'merge-requests:list'
  | 'merge-requests:get'
  | 'epics:list'
  | 'epics:get'
  | 'milestones:list'
  | 'milestones:get'
  | 'labels:list'
  | 'projects:list'
  | 'users:list'
  | 'todos:list'
  | 'search:query'
  | 'api:get'

export interface OfflineData {
  readonly cache: Cache
  readonly sync: SyncService
  readonly accounts: Accounts
}

/**
 * How long a read answered from the copy on this computer, while the instance is unreachable,
 * keeps its probe quick (OnlineState.setUrgent): stale data is on screen, and should be
 * replaced within seconds of the instance answering.
 */
const STALE_READ_URGENCY_MS = 60_000

function notFound(message: string): Error {
  return Object.assign(new Error(message), { code: 'not-found' })
}

/**
 * Implements the cache and sync channels on top of core/cache and core/sync; handlers.ts
 * spreads these in. `data()` throws `unavailable` when the launch has no cache.
 */
export function cacheHandlers(data: () => OfflineData): Pick<IpcHandlers, CacheChannels> {
  let reader: CacheReader | null = null
  let cachedGet: CachedGet | null = null
  const read = (): CacheReader => (reader ??= new CacheReader(data().cache))
  const saved = (): CachedGet => (cachedGet ??= new CachedGet(data().cache))

  /** Marks the listed issues an open issue blocks (by the links saved on this computer); none for an account gone since. */
  const withBlocked = async (accountId: string, list: CachedList<'issue'>): Promise<CachedList<'issue'>> => {
    if (list.items.length === 0) return list
    const client = await data()
      .accounts.clientFor(accountId)
      .catch(() => null)
    if (client === null) return list
    const blocked = blockedIssueIds(
      saved(),
      accountId,
      client,
      list.items.map((i) => i.data),
    )
    if (blocked.size === 0) return list
    return { ...list, items: list.items.map((i) => (blocked.has(i.data.id) ? { ...i, blocked: true } : i)) }
  }
  const viewer = async (accountId: string): Promise<number | null> =>
    (await data().accounts.list()).find((a) => a.id === accountId)?.userId ?? null
  /** Reads while offline show stale data: the instance is probed often until it answers. */
  const offlineRead = <T>(accountId: string, answer: T): T => {
    const online = data().accounts.connectivityFor(accountId)
    if (!online.online) online.setUrgent('stale-read', true, STALE_READ_URGENCY_MS)
    return answer
  }

  const detail = async <K extends NoteableKind>(
    accountId: string,
    kind: K,
    ref: { readonly id: number } | { readonly parentId: number; readonly iid: number },
    refresh: boolean,
  ) => {
    const { cache, accounts } = data()
    let freshness: 'fresh' | 'stale' | 'gone' = 'stale'
    if (refresh && accounts.connectivityFor(accountId).online)
      freshness = await refreshItem(cache, await accounts.clientFor(accountId), accountId, kind, ref)
    const found = freshness === 'gone' ? null : read().detail(accountId, kind, ref)
    if (found === null)
      throw notFound(
        `That ${kind.replace('_', ' ')} is not in the cache${freshness === 'gone' ? ' (the server no longer has it)' : ''}.`,
      )
    return offlineRead(accountId, { ...found, stale: freshness !== 'fresh' })
  }

  return {
    'sync:start': async (accountId, options) => data().sync.start(accountId, options ?? {}),
    'sync:cancel': async (accountId) => data().sync.cancel(accountId),
    'sync:status': async (accountId) => data().sync.status(accountId),
    'sync:set-scope': async (accountId, scope) => data().sync.setScope(accountId, scope),
    'sync:get-scope': async (accountId) => data().sync.getScope(accountId),
    'issues:list': async (accountId, params) =>
      offlineRead(
        accountId,
        await withBlocked(accountId, read().listIssues(accountId, params ?? {}, await viewer(accountId))),
      ),
    'issues:get': async (accountId, ref, options) =>
      detail(
        accountId,
        'issue',
        'id' in ref ? ref : { parentId: ref.project_id, iid: ref.iid },
        options?.refresh === true,
      ),
    'merge-requests:list': async (accountId, params) =>
      offlineRead(accountId, read().listMergeRequests(accountId, params ?? {}, await viewer(accountId))),
    'merge-requests:get': async (accountId, ref, options) =>
      detail(
        accountId,
        'merge_request',
        'id' in ref ? ref : { parentId: ref.project_id, iid: ref.iid },
        options?.refresh === true,
      ),
    'epics:list': async (accountId, params) => offlineRead(accountId, read().listEpics(accountId, params ?? {})),
    'epics:get': async (accountId, ref, options) =>
      detail(
        accountId,
        'epic',
        'id' in ref ? ref : { parentId: ref.group_id, iid: ref.iid },
        options?.refresh === true,
      ),
    'milestones:list': async (accountId, params) =>
      offlineRead(accountId, read().listMilestones(accountId, params ?? {})),
    'milestones:get': async (accountId, milestoneId) => {
      const found = read().milestone(accountId, milestoneId)
      if (found === null) throw notFound('That milestone is not in the cache.')
      return found
    },
    'labels:list': async (accountId, params) => read().listLabels(accountId, params ?? {}),
    'projects:list': async (accountId, params) => offlineRead(accountId, read().listProjects(accountId, params ?? {})),
    'users:list': async (accountId, params) => read().listUsers(accountId, params ?? {}),
    'todos:list': async (accountId, params) => offlineRead(accountId, read().listTodos(accountId, params ?? {})),
    'search:query': async (accountId, params) => offlineRead(accountId, searchCache(data().cache, accountId, params)),
    'api:get': async (accountId, path, query) => {
      const { accounts } = data()
      const client = await accounts.clientFor(accountId)
      return offlineRead(
        accountId,
        await saved().get(accountId, client, path, query, { online: accounts.connectivityFor(accountId).online }),
      )
    },
  }
}
