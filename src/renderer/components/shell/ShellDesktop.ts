import { defineComponent } from 'vue'
import { useDesktopShell } from '../../composables/use-desktop-shell'

/** Renders nothing: it holds useDesktopShell inside App.vue's message provider. */
export default defineComponent({
  name: 'ShellDesktop',
  setup() {
    useDesktopShell()
    return () => null
  },
})
