import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { Account } from '../../shared/ipc/contract'
import type { SecretStorageStatus } from '../../shared/ipc/secrets'
import { useBridge } from '../bridge'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'
import { storageState, type StorageState } from '../lib/secret-storage'
import { useAccountsStore } from './accounts'
import { useOutboxStore } from './outbox'
import { useSyncStore } from './sync'

/**
 * Where sign-ins are saved (`accounts:secret-storage`) and the encrypted file's passphrase
 * (`accounts:use-encrypted-file`). While the file is locked every account with a saved secret
 * (all but the local server's, whose token lives in memory) is locked: the shell asks for the
 * passphrase once per launch, and after "Skip" shows those accounts as locked instead.
 */
export const useSecretStorageStore = defineStore('secret-storage', () => {
  const bridge = useBridge()
  const accounts = useAccountsStore()
  const status = ref<SecretStorageStatus | null>(null)
  const error = ref<ReadableError | null>(null)
  /** The user chose "Skip" at the unlock prompt: not asked again until they say so. */
  const skipped = ref(false)
  let loading: Promise<void> | null = null

  const state = computed<StorageState | null>(() => (status.value === null ? null : storageState(status.value)))
  const locked = computed(() => state.value === 'file-locked')
  const lockedAccounts = computed<readonly Account[]>(() =>
    locked.value ? accounts.accounts.filter((a) => a.kind !== 'local') : [],
  )
  /** The launch prompt: the file is locked, accounts wait on it, and the user has not skipped. */
  const promptUnlock = computed(() => lockedAccounts.value.length > 0 && !skipped.value)

  const isLocked = (accountId: string): boolean => lockedAccounts.value.some((a) => a.id === accountId)

  /**
   * Reads the status once (concurrent callers share the request); failures land in `error` and
   * are not retried here (a launch without the channel stays without it), only by `refresh()`.
   */
  function ensureLoaded(): Promise<void> {
    if (status.value !== null || error.value !== null) return Promise.resolve()
    loading ??= refresh().finally(() => (loading = null))
    return loading
  }

  async function refresh(): Promise<void> {
    try {
      status.value = await bridge.request('accounts:secret-storage')
      error.value = null
    } catch (e) {
      error.value = toReadableError(e)
    }
  }

  /**
   * Creates the encrypted file with this passphrase, or unlocks it; core moves the keychain's
   * sign-ins into it. Accounts that were locked sync at once and their queued writes go out now
   * rather than at their next back-off. Throws IpcFailure (`wrong-passphrase`).
   */
  async function useEncryptedFile(passphrase: string): Promise<SecretStorageStatus> {
    const waiting = lockedAccounts.value.map((a) => a.id)
    const next = await bridge.request('accounts:use-encrypted-file', passphrase)
    status.value = next
    error.value = null
    skipped.value = false
    if (waiting.length > 0) void resume(waiting)
    return next
  }

  async function resume(accountIds: readonly string[]): Promise<void> {
    const sync = useSyncStore()
    const outbox = useOutboxStore()
    await Promise.allSettled(accountIds.map((id) => sync.start(id)))
    const queued = outbox.unsettled.filter((e) => e.state === 'queued' && accountIds.includes(e.accountId))
    await Promise.allSettled(queued.map((e) => outbox.retry(e.id)))
  }

  function skip(): void {
    skipped.value = true
  }

  /** Shows the unlock prompt again (the banner's and the Accounts view's "Unlock…"). */
  function askAgain(): void {
    skipped.value = false
  }

  return {
    status,
    error,
    skipped,
    state,
    locked,
    lockedAccounts,
    promptUnlock,
    isLocked,
    ensureLoaded,
    refresh,
    useEncryptedFile,
    skip,
    askAgain,
  }
})
