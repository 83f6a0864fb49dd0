/**
 * Keyboard shortcuts as strings: a chord is modifiers and a key joined by `+` (`mod+k`,
 * `shift+enter`), a sequence is chords separated by spaces (`g i`). `mod` is ⌘ on macOS and
 * Ctrl elsewhere, so one binding serves both.
 */

export type Platform = 'mac' | 'other'

/** Guesses the platform from the user agent (no Node `process` in the renderer). */
export function detectPlatform(nav: Pick<Navigator, 'userAgent'> | undefined = globalThis.navigator): Platform {
  return nav !== undefined && /Mac|iPhone|iPad/.test(nav.userAgent) ? 'mac' : 'other'
}

const KEY_ALIASES: Readonly<Record<string, string>> = {
  esc: 'escape',
  return: 'enter',
  space: ' ',
  up: 'arrowup',
  down: 'arrowdown',
  left: 'arrowleft',
  right: 'arrowright',
}
const MODIFIER_ORDER = ['mod', 'ctrl', 'alt', 'shift'] as const

function normalizeChord(chord: string): string {
  const parts = chord.toLowerCase().split('+')
  // `mod++` means mod and the plus key.
  const key = chord.endsWith('++') ? '+' : (parts.pop() ?? '')
  const modifiers = new Set(parts.filter((p) => p !== ''))
  const ordered = MODIFIER_ORDER.filter((m) => modifiers.has(m))
  return [...ordered, KEY_ALIASES[key] ?? key].join('+')
}

/** `"g  I"` → `["g", "i"]`; `"Mod+Shift+P"` → `["mod+shift+p"]`. */
export function parseKeys(keys: string): string[] {
  return keys.trim().split(/\s+/).filter(Boolean).map(normalizeChord)
}

type KeyLike = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>

/** The chord a keydown event stands for, or null for a lone modifier press. */
export function chordOf(event: KeyLike, platform: Platform): string | null {
  const key = event.key.toLowerCase()
  if (['control', 'meta', 'alt', 'shift', 'os', 'dead', 'unidentified'].includes(key)) return null
  const parts: string[] = []
  const mod = platform === 'mac' ? event.metaKey : event.ctrlKey
  if (mod) parts.push('mod')
  if (platform === 'mac' && event.ctrlKey) parts.push('ctrl')
  if (event.altKey) parts.push('alt')
  // Shift is already in the character for `?`, `!`, `#`…: only letters and named keys keep it.
  const printableSymbol = key.length === 1 && !/[a-z0-9]/.test(key)
  if (event.shiftKey && !printableSymbol) parts.push('shift')
  parts.push(key)
  return parts.join('+')
}

/** True when the chord uses Ctrl/⌘ or Alt, which typing in a field does not. */
export function hasCommandModifier(chord: string): boolean {
  return /(^|\+)(mod|ctrl|alt)\+/.test(chord)
}

type EnterLike = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey'>

/**
 * True for Enter with Ctrl or ⌘, the "send / save" chord of Burrow's text fields. Either modifier
 * counts on every platform, so a macOS user with Ctrl habits is not left typing newlines.
 */
export function isModEnter(event: EnterLike): boolean {
  return event.key === 'Enter' && (event.ctrlKey || event.metaKey)
}

/**
 * One keydown handler that runs `action` on Ctrl/⌘+Enter instead of inserting a newline. A single
 * function on purpose: NInput's `onKeydown` prop takes one function, not the array two `@keydown`
 * listeners would make.
 */
export function onModEnter(action: () => void): (event: EnterLike & Pick<KeyboardEvent, 'preventDefault'>) => void {
  return (event) => {
    if (!isModEnter(event)) return
    event.preventDefault()
    action()
  }
}

const MAC_SYMBOLS: Readonly<Record<string, string>> = { mod: '⌘', ctrl: '⌃', alt: '⌥', shift: '⇧' }
const NAMED_KEYS: Readonly<Record<string, string>> = {
  escape: 'Esc',
  enter: 'Enter',
  ' ': 'Space',
  arrowup: '↑',
  arrowdown: '↓',
  arrowleft: '←',
  arrowright: '→',
}

/** How to show a binding: `⌘K` on macOS, `Ctrl+K` elsewhere; sequences as `G then I`. */
export function formatKeys(keys: string, platform: Platform): string {
  return parseKeys(keys)
    .map((chord) => {
      const parts = chord === '+' ? ['+'] : chord.split('+')
      const key = parts.pop() ?? ''
      const label = NAMED_KEYS[key] ?? (key.length === 1 ? key.toUpperCase() : key[0].toUpperCase() + key.slice(1))
      if (platform === 'mac') return parts.map((m) => MAC_SYMBOLS[m] ?? m).join('') + label
      return [...parts.map((m) => (m === 'mod' ? 'Ctrl' : m[0].toUpperCase() + m.slice(1))), label].join('+')
    })
    .join(' then ')
}

export interface Binding<T> {
  readonly keys: string
  readonly value: T
}

/** How long the next key of a sequence (`g` … `i`) may take. */
export const SEQUENCE_TIMEOUT_MS = 1_500

/**
 * Feeds chords one at a time and says which binding they complete. A chord that starts a
 * longer sequence is held as pending; a chord that fits nothing resets the sequence. When two
 * bindings have the same keys the later one wins: views register after the shell, so a view's
 * `c` (comment on the item in view) takes over from the shell's (a new issue).
 */
export class ShortcutMatcher<T> {
  private pending: string[] = []
  private pendingSince = 0

  constructor(private readonly bindings: () => readonly Binding<T>[]) {}

  /** Returns the matched binding's value, `'pending'` while a sequence is open, or null. */
  feed(chord: string, now: number): T | 'pending' | null {
    if (this.pending.length > 0 && now - this.pendingSince > SEQUENCE_TIMEOUT_MS) this.pending = []
    const attempt = (prefix: string[]): T | 'pending' | null => {
      let partial = false
      let exact: Binding<T> | null = null
      for (const binding of this.bindings()) {
        const sequence = parseKeys(binding.keys)
        if (sequence.length < prefix.length || !prefix.every((c, i) => sequence[i] === c)) continue
        if (sequence.length === prefix.length) exact = binding
        else partial = true
      }
      if (exact !== null) {
        this.pending = []
        return exact.value
      }
      if (partial) {
        this.pending = prefix
        this.pendingSince = now
        return 'pending'
      }
      return null
    }
    const result = attempt([...this.pending, chord])
    if (result !== null || this.pending.length === 0) return result
    // The open sequence broke: the chord may still start or be a binding on its own.
    this.pending = []
    return attempt([chord])
  }

  reset(): void {
    this.pending = []
  }
}
