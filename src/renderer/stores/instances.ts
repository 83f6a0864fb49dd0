import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import { LOCAL_ACCOUNT_ID } from '../../shared/ipc/contract'
import { useBridge } from '../bridge'
import { useAccountsStore } from './accounts'

/** What `GET /version` answers; Burrow Server says `revision: 'burrow'`. */
interface VersionAnswer {
  readonly revision?: string
}

/**
 * What each account's instance is, as far as the views need it: whether it serves web pages.
 * GitLab does; Burrow Server (the local one, or any other) has only the API, so its items'
 * `web_url`s lead to a 404 and the app opens them itself instead.
 */
export const useInstancesStore = defineStore('instances', () => {
  const bridge = useBridge()
  const accounts = useAccountsStore()
  const webPages = shallowRef<Readonly<Record<string, boolean>>>({})
  const asked = new Set<string>()

  /** Asks the instance once (through the saved copy offline) what it is. */
  async function learn(accountId: string): Promise<void> {
    if (asked.has(accountId)) return
    asked.add(accountId)
    try {
      const answer = await bridge.request('api:get', accountId, '/version')
      webPages.value = { ...webPages.value, [accountId]: (answer.body as VersionAnswer | null)?.revision !== 'burrow' }
    } catch {
      // Unknown for now: assume a GitLab, and ask again next time.
      asked.delete(accountId)
    }
  }

  /** Whether the account's instance serves the web pages its items link to (assumed until known; never for the local server). */
  function hasWebPages(accountId: string): boolean {
    const account = accounts.accounts.find((a) => a.id === accountId)
    if (account?.kind === 'local' || accountId === LOCAL_ACCOUNT_ID) return false
    void learn(accountId)
    return webPages.value[accountId] ?? true
  }

  return { hasWebPages }
})
