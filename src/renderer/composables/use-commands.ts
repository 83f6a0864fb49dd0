import { getCurrentInstance, getCurrentScope, onActivated, onDeactivated, onScopeDispose } from 'vue'
import { useCommandsStore, type Command } from '../stores/commands'

/**
 * Registers commands for as long as the calling component (or effect scope) lives: a view
 * calls this in setup and its commands leave the palette when it unmounts — or, for a view
 * kept alive while another is shown (the issue and merge request lists), while it is away.
 */
export function useCommands(...commands: Command[]): void {
  const store = useCommandsStore()
  let unregister: (() => void) | null = store.register(...commands)
  const leave = (): void => {
    unregister?.()
    unregister = null
  }
  if (getCurrentInstance() !== null) {
    onDeactivated(leave)
    onActivated(() => {
      unregister ??= store.register(...commands)
    })
  }
  if (getCurrentScope()) onScopeDispose(leave)
}
