import { ref, shallowRef, watch, type Ref, type ShallowRef } from 'vue'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'

export interface RepoRead<T> {
  readonly data: ShallowRef<T | null>
  readonly error: Ref<ReadableError | null>
  readonly loading: Ref<boolean>
  reload(): Promise<void>
}

/**
 * One read of the repository browser, run again whenever `key` changes (a ref, a path, the
 * clone's last fetch); null means nothing to read. An answer to an older key is dropped, so a
 * slow read cannot overwrite a newer one.
 */
export function useRepoRead<T>(key: () => readonly unknown[] | null, load: () => Promise<T>): RepoRead<T> {
  const data = shallowRef<T | null>(null) as ShallowRef<T | null>
  const error = ref<ReadableError | null>(null)
  const loading = ref(false)
  let sequence = 0

  async function run(): Promise<void> {
    const mine = ++sequence
    if (key() === null) {
      data.value = null
      loading.value = false
      return
    }
    loading.value = true
    try {
      const answer = await load()
      if (mine !== sequence) return
      data.value = answer
      error.value = null
    } catch (e) {
      if (mine !== sequence) return
      data.value = null
      error.value = toReadableError(e)
    } finally {
      if (mine === sequence) loading.value = false
    }
  }

  watch(
    () => JSON.stringify(key()),
    () => void run(),
    { immediate: true },
  )
  return { data, error, loading, reload: run }
}
