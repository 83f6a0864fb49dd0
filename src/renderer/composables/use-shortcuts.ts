import { onBeforeUnmount, onMounted } from 'vue'
import { chordOf, detectPlatform, hasCommandModifier, ShortcutMatcher } from '../lib/keys'
import { useCommandsStore, type Command } from '../stores/commands'

/** Typing here should not trigger single-key shortcuts. */
function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  // A field of a dialog that is leaving (inert) may keep the focus until it is gone: keys are the page's.
  if (target.closest('[inert]') !== null) return false
  if (target.isContentEditable) return true
  const tag = target.tagName
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true
  if (tag !== 'INPUT') return false
  const type = (target as HTMLInputElement).type
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color'].includes(type)
}

/**
 * Listens for the registered commands' shortcuts on `target` (the window): installed once, by
 * the shell. In a text field only `global` commands with Ctrl/⌘ or Alt fire, so typing "g" in a
 * search box never navigates.
 */
export function useShortcuts(target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): void {
  const store = useCommandsStore()
  const platform = detectPlatform()
  const matcher = new ShortcutMatcher<Command>(() =>
    store.commands.filter((c) => c.keys !== undefined).map((c) => ({ keys: c.keys as string, value: c })),
  )

  const onKeydown = (event: Event): void => {
    const e = event as KeyboardEvent
    if (e.defaultPrevented || e.isComposing || e.repeat) return
    const chord = chordOf(e, platform)
    if (chord === null) return
    const editing = isEditable(e.target)
    if (editing && !hasCommandModifier(chord)) {
      matcher.reset()
      return
    }
    const result = matcher.feed(chord, Date.now())
    if (result === 'pending') {
      e.preventDefault()
      return
    }
    if (result === null) return
    if (editing && !result.global) return
    e.preventDefault()
    void store.run(result.id)
  }

  onMounted(() => target.addEventListener('keydown', onKeydown))
  onBeforeUnmount(() => target.removeEventListener('keydown', onKeydown))
}
