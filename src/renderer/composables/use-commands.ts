import { getCurrentScope, onScopeDispose } from 'vue'
import { useCommandsStore, type Command } from '../stores/commands'

/**
 * Registers commands for as long as the calling component (or effect scope) lives: a view
 * calls this in setup and its commands leave the palette when it unmounts.
 */
export function useCommands(...commands: Command[]): void {
  const unregister = useCommandsStore().register(...commands)
  if (getCurrentScope()) onScopeDispose(unregister)
}
