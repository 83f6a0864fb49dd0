import { nextTick, ref, watch, type Ref, type WatchSource } from 'vue'

export interface Listbox {
  /** The highlighted option's index. */
  readonly active: Ref<number>
  /** The filter box's keys: ↑/↓ move the highlight round the options, Enter chooses it. */
  onKeydown(event: KeyboardEvent): void
}

/**
 * The keyboard half of a filter box over a listbox (the palette, the triage picker): the
 * highlighted option wraps round at both ends, is scrolled into view by its element id, and
 * goes back to the top whenever `resetOn` (the filter text) changes.
 */
export function useListbox(options: {
  readonly count: () => number
  readonly optionId: (index: number) => string
  readonly choose: (index: number) => void
  readonly resetOn: WatchSource<unknown>
}): Listbox {
  const active = ref(0)
  watch(options.resetOn, () => (active.value = 0))

  function move(delta: number): void {
    const count = options.count()
    if (count === 0) return
    active.value = (active.value + delta + count) % count
    void nextTick(() => document.getElementById(options.optionId(active.value))?.scrollIntoView({ block: 'nearest' }))
  }

  function onKeydown(event: KeyboardEvent): void {
    if (event.key === 'ArrowDown') move(1)
    else if (event.key === 'ArrowUp') move(-1)
    else if (event.key === 'Enter') options.choose(active.value)
    else return
    event.preventDefault()
  }
  return { active, onKeydown }
}
