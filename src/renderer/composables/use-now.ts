import { onScopeDispose, shallowRef, type ShallowRef } from 'vue'

const now = shallowRef(new Date())
let users = 0
let timer: ReturnType<typeof setInterval> | null = null

/**
 * The current time, updated every 30 seconds and shared by every caller (one timer for a list
 * of ten thousand relative dates), stopped when no component needs it.
 */
export function useNow(): Readonly<ShallowRef<Date>> {
  users++
  if (timer === null) {
    now.value = new Date()
    timer = setInterval(() => (now.value = new Date()), 30_000)
  }
  onScopeDispose(() => {
    users--
    if (users === 0 && timer !== null) {
      clearInterval(timer)
      timer = null
    }
  })
  return now
}
