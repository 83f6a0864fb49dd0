import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import { LOCAL_ACCOUNT_ID } from '../../shared/ipc/contract'
import { useBridge } from '../bridge'
import { useAccountsStore } from './accounts'

/** What `GET /version` answers; Burrow Server says `revision: 'burrow'`. */
interface VersionAnswer {
  readonly revision?: string
}

/** Whether two URLs share scheme, host and port (a malformed one shares nothing). */
function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin
  } catch {
    return false
  }
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

  /**
   * Whether a web URL opens usefully in the browser: any http(s) URL elsewhere, and one on the
   * account's instance only where it serves web pages (the rule of "Open on the server"). The
   * instance is its account's address and that of `instanceUrls`, web URLs it gave itself (behind
   * a proxy, it names itself by another address).
   */
  function opensInBrowser(accountId: string, url: string, instanceUrls: readonly string[] = []): boolean {
    if (!/^https?:\/\//i.test(url)) return false
    const base = accounts.accounts.find((a) => a.id === accountId)?.baseUrl
    const onInstance = [...instanceUrls, ...(base === undefined ? [] : [base])].some((u) => sameOrigin(url, u))
    return !onInstance || hasWebPages(accountId)
  }

  return { hasWebPages, opensInBrowser }
})
