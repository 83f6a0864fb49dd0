import { onBeforeUnmount, watchEffect } from 'vue'
import { useAppStore } from '../stores/app'

/** Shows `title()` in the shell's header while the calling view is mounted. */
export function usePageTitle(title: () => string | null): void {
  const app = useAppStore()
  watchEffect(() => {
    app.pageTitle = title()
  })
  onBeforeUnmount(() => {
    app.pageTitle = null
  })
}
