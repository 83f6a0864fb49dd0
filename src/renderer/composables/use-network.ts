import { onBeforeUnmount, onMounted, shallowRef, type ShallowRef } from 'vue'

/**
 * Whether the operating system reports a network connection (`navigator.onLine`). It only says
 * "certainly offline"; whether a forge answers is core's to report.
 */
export function useNetwork(): Readonly<ShallowRef<boolean>> {
  const online = shallowRef(typeof navigator === 'undefined' ? true : navigator.onLine)
  const update = (): void => {
    online.value = navigator.onLine
  }
  onMounted(() => {
    window.addEventListener('online', update)
    window.addEventListener('offline', update)
  })
  onBeforeUnmount(() => {
    window.removeEventListener('online', update)
    window.removeEventListener('offline', update)
  })
  return online
}
