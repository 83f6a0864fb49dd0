import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { Account, AccountVerification, AddAccountRequest } from '../../shared/ipc/contract'
import { useBridge } from '../bridge'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'
import { readStored, writeStored } from '../lib/storage'

/** The account switcher's value: one account's id, or every account at once. */
export type AccountSelection = string | typeof ALL_ACCOUNTS
export const ALL_ACCOUNTS = 'all'

const SELECTION_KEY = 'burrow.selected-account'
const isString = (v: unknown): v is string => typeof v === 'string'

/** The signed-in accounts and which one the shell shows; follows `accounts:did-change`. */
export const useAccountsStore = defineStore('accounts', () => {
  const bridge = useBridge()
  const accounts = ref<readonly Account[]>([])
  const loaded = ref(false)
  const error = ref<ReadableError | null>(null)
  const storedSelection = ref<AccountSelection>(readStored(SELECTION_KEY, isString, ALL_ACCOUNTS))
  let loading: Promise<void> | null = null

  bridge.on('accounts:did-change', (list) => {
    accounts.value = list
    loaded.value = true
  })

  /** The selection, corrected when the remembered account is gone; a lone account is selected. */
  const selection = computed<AccountSelection>(() => {
    const id = storedSelection.value
    if (id !== ALL_ACCOUNTS && accounts.value.some((a) => a.id === id)) return id
    return accounts.value.length === 1 ? accounts.value[0].id : ALL_ACCOUNTS
  })
  const current = computed<Account | null>(() => accounts.value.find((a) => a.id === selection.value) ?? null)
  const isEmpty = computed(() => loaded.value && accounts.value.length === 0)

  function select(value: AccountSelection): void {
    storedSelection.value = value
    writeStored(SELECTION_KEY, value)
  }

  /** Loads the list once (concurrent callers share the request); failures land in `error`. */
  function ensureLoaded(): Promise<void> {
    if (loaded.value) return Promise.resolve()
    loading ??= reload().finally(() => (loading = null))
    return loading
  }

  async function reload(): Promise<void> {
    try {
      accounts.value = await bridge.request('accounts:list')
      loaded.value = true
      error.value = null
    } catch (e) {
      error.value = toReadableError(e)
    }
  }

  /** Adds an account (verified by core with GET /user) and selects it. Throws IpcFailure. */
  async function add(request: AddAccountRequest): Promise<Account> {
    const account = await bridge.request('accounts:add', request)
    // The did-change event usually arrives first; do not depend on it.
    if (!accounts.value.some((a) => a.id === account.id)) accounts.value = [...accounts.value, account]
    loaded.value = true
    select(account.id)
    return account
  }

  /** Adds the local Burrow Server's account with the launch's own credential (no token) and selects it. Throws IpcFailure. */
  async function addLocal(): Promise<Account> {
    const account = await bridge.request('accounts:add-local')
    accounts.value = [...accounts.value.filter((a) => a.id !== account.id), account]
    loaded.value = true
    select(account.id)
    return account
  }

  /** Removes the account and its saved secret. Throws IpcFailure. */
  async function remove(id: string): Promise<void> {
    try {
      await bridge.request('accounts:remove', id)
    } catch (e) {
      // Core may have dropped the account before failing on its secret (a locked sign-in file).
      await reload()
      throw e
    }
    accounts.value = accounts.value.filter((a) => a.id !== id)
  }

  /** Checks the saved sign-in with GET /user. Throws IpcFailure. */
  function verify(id: string): Promise<AccountVerification> {
    return bridge.request('accounts:verify', id)
  }

  return {
    accounts,
    loaded,
    error,
    selection,
    current,
    isEmpty,
    select,
    ensureLoaded,
    reload,
    add,
    addLocal,
    remove,
    verify,
  }
})
