import { useMessage } from 'naive-ui'
import { getCurrentScope, onScopeDispose } from 'vue'
import { useRouter } from 'vue-router'
import { useBridge } from '../bridge'
import { useCommands } from './use-commands'

/**
 * The page's side of the desktop shell, for the life of the calling component (inside the
 * message provider): shows the routes the shell asks for (`app:did-request-route`: a tray item,
 * a notification, a burrow:// link) and offers "Copy diagnostics" in the command palette.
 */
export function useDesktopShell(): void {
  const bridge = useBridge()
  const router = useRouter()
  const message = useMessage()
  const stop = bridge.on('app:did-request-route', ({ route }) => void router.push(route))
  if (getCurrentScope()) onScopeDispose(stop)

  async function copyDiagnostics(): Promise<void> {
    try {
      const { text } = await bridge.request('app:diagnostics')
      await navigator.clipboard.writeText(text)
      message.success('Diagnostics copied: versions, platform, account hosts and recent log lines, without tokens.')
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      message.error(`Could not copy the diagnostics: ${reason}`)
    }
  }

  useCommands({
    id: 'app.diagnostics',
    title: 'Copy diagnostics',
    group: 'General',
    keywords: 'bug report support versions log debug',
    run: copyDiagnostics,
  })
}
