import { ref, type Ref } from 'vue'
import type { CachedDetail } from '../../shared/ipc/cache'

/** The kinds of items with a detail page of their own. */
type ItemKind = 'issue' | 'merge_request' | 'epic'
import { useSecretStorageStore } from '../stores/secret-storage'
import { useCachedQuery, type CachedQuery } from './use-cached-query'

/** The detail page's item of kind `K` and its discussions. */
export interface ItemDetail<K extends ItemKind> {
  readonly detail: CachedQuery<CachedDetail<K>>
  /** The last refresh could not reach the server: the page shows the copy on this computer. */
  readonly unreachable: Ref<boolean>
  /** Reads the item from the server again (on request, or after an online-only action). */
  readFromServer(): Promise<void>
}

/**
 * The item of a detail page (issue, merge request, epic). Its first load asks the server when
 * it can; later ones read the cache, which sync and the outbox keep current. `key` names the
 * item (account first); `get` is its `*:get` request, told whether to refresh.
 */
export function useItemDetail<K extends ItemKind>(options: {
  readonly key: () => readonly [accountId: string, parentId: number, iid: number]
  /** The cache kind of the item; its notes and discussions are watched with it. */
  readonly kind: K
  readonly get: (refresh: boolean) => Promise<CachedDetail<K>>
}): ItemDetail<K> {
  const secretStorage = useSecretStorageStore()
  let refreshedKey = ''
  const unreachable = ref(false)
  const accountId = (): string => options.key()[0]
  const detail = useCachedQuery(
    options.key,
    () => [accountId()],
    [options.kind, 'note', 'discussion'],
    async () => {
      const key = options.key().join('/')
      // A locked sign-in cannot ask the server: the saved copy, refreshed once it is unlocked.
      await secretStorage.ensureLoaded()
      const locked = secretStorage.isLocked(accountId())
      const refresh = refreshedKey !== key && !locked
      if (!locked) refreshedKey = key
      return options.get(refresh).then((answer) => {
        // Only an answer to a refresh says whether the server could be reached; cache reads keep the last verdict.
        if (refresh) unreachable.value = answer.stale
        return answer
      })
    },
  )
  function readFromServer(): Promise<void> {
    refreshedKey = ''
    return detail.reload()
  }
  return { detail, unreachable, readFromServer }
}
