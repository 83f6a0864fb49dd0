import { shallowRef, type ShallowRef } from 'vue'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'

export interface IpcErrorState {
  /** The last failure, readable; null after a success or `clear()`. */
  readonly error: ShallowRef<ReadableError | null>
  /** True while a `run` is in flight. */
  readonly busy: ShallowRef<boolean>
  /** Runs a bridge call; on failure keeps the readable error and resolves to undefined. */
  run<T>(action: () => Promise<T>): Promise<T | undefined>
  clear(): void
}

/**
 * The one way views show what a bridge request threw: wrap the call in `run`, bind `error`
 * to a CommonErrorAlert. The error is translated once, here, by lib/ipc-errors.ts.
 */
export function useIpcError(): IpcErrorState {
  const error = shallowRef<ReadableError | null>(null)
  const busy = shallowRef(false)
  return {
    error,
    busy,
    async run(action) {
      busy.value = true
      error.value = null
      try {
        return await action()
      } catch (e) {
        error.value = toReadableError(e)
        return undefined
      } finally {
        busy.value = false
      }
    },
    clear() {
      error.value = null
    },
  }
}
