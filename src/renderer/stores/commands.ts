import { defineStore } from 'pinia'
import { computed, shallowRef } from 'vue'
import type { IconName } from '../components/common/icons'

/** Something the user can do from the command palette, and optionally with a shortcut. */
export interface Command {
  /** Unique; registering the same id again replaces the earlier command. */
  readonly id: string
  readonly title: string
  /** The palette's group heading (`Navigation`, `Issue`, `View`…). */
  readonly group: string
  /** A binding in lib/keys.ts syntax (`mod+k`, `g i`). */
  readonly keys?: string
  /** Extra words the palette matches on. */
  readonly keywords?: string
  /** Shown muted beside the title (an item's reference). */
  readonly hint?: string
  /** Shown before the title (the kind of an item). */
  readonly icon?: IconName
  /** Hidden from the palette and its shortcut ignored while this says false. */
  readonly enabled?: () => boolean
  /** Works while typing in a field (only sensible with Ctrl/⌘ or Alt). */
  readonly global?: boolean
  run(): void | Promise<void>
}

/** The commands registered right now: the shell's own, plus those of the views on screen. */
export const useCommandsStore = defineStore('commands', () => {
  const registry = shallowRef<ReadonlyMap<string, Command>>(new Map())
  const paletteOpen = shallowRef(false)
  const helpOpen = shallowRef(false)

  const commands = computed(() => [...registry.value.values()].filter((c) => c.enabled?.() ?? true))

  /** Adds commands; returns the function that removes exactly these again. */
  function register(...added: Command[]): () => void {
    const next = new Map(registry.value)
    for (const command of added) next.set(command.id, command)
    registry.value = next
    return () => {
      const after = new Map(registry.value)
      for (const command of added) if (after.get(command.id) === command) after.delete(command.id)
      registry.value = after
    }
  }

  async function run(id: string): Promise<void> {
    const command = registry.value.get(id)
    if (command === undefined || !(command.enabled?.() ?? true)) return
    paletteOpen.value = false
    await command.run()
  }

  return { commands, paletteOpen, helpOpen, register, run }
})
