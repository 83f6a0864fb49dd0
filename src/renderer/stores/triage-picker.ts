import { defineStore } from 'pinia'
import { computed, shallowRef } from 'vue'
import { afterPaint, nextTask } from '../lib/frames'

/** One choice of the triage picker (a label, a person, a milestone, a project). */
export interface PickerOption {
  readonly value: string
  readonly label: string
  /** A second, dimmer line: a username, a path, a description. */
  readonly detail?: string
  /** Already set on every target: picking it takes it off. */
  readonly checked?: boolean
  /** A label's colour, shown as a swatch. */
  readonly color?: string
}

export interface PickerRequest {
  readonly title: string
  readonly placeholder: string
  /** `choose`: pick one option; `text`: write text (a comment) and send it with Ctrl/⌘+Enter. */
  readonly mode: 'choose' | 'text'
  /** The options, or a load of them (shown with a spinner meanwhile). */
  readonly options?: readonly PickerOption[] | (() => Promise<readonly PickerOption[]>)
  /** Why the action cannot run now (offline, for an online-only action): shown instead of the options. */
  readonly blocked?: string | null
  /** What the targets are (`#12`, `3 issues`). */
  readonly subject: string
}

/**
 * The triage picker (labels, assignees, milestone, move, comment from the keyboard): one modal
 * mounted by the shell, opened by views through `choose`, which resolves with the chosen value
 * or the text written, or null when dismissed.
 */
export const useTriagePickerStore = defineStore('triage-picker', () => {
  const request = shallowRef<PickerRequest | null>(null)
  /** A request just answered, still on screen (inert) until the frame showing the answer's effect is rendered. */
  const leaving = shallowRef<PickerRequest | null>(null)
  /** Whether the dialog shows: a request is open, or one answered a frame ago is leaving. */
  const visible = computed(() => request.value !== null || leaving.value !== null)
  let settle: ((value: string | null) => void) | null = null
  let chosenAt = 0

  function choose(next: PickerRequest): Promise<string | null> {
    settle?.(null)
    leaving.value = null
    request.value = next
    return new Promise((resolve) => {
      settle = resolve
    })
  }

  /**
   * Called by the picker: the chosen value or text, or null when dismissed. A choice is applied
   * by the caller in this task and shows in the next frame; the dialog starts to leave only after
   * that frame, so its leave (a forced layout, the fading mask) is not part of it. It is inert at
   * once: keys go to the page behind it.
   */
  function finish(value: string | null): void {
    chosenAt = performance.now()
    const done = settle
    settle = null
    const answered = request.value
    request.value = null
    if (value !== null && answered !== null) {
      leaving.value = answered
      // In a task of its own after that frame, behind the tasks the frame's callbacks queued.
      afterPaint(
        () =>
          nextTask(() => {
            if (leaving.value === answered) leaving.value = null
          }),
        LEAVE_WITHIN_MS,
      )
    }
    done?.(value)
  }

  /** When the last choice was made (`performance.now()`): the label feedback measure starts there. */
  const lastChosenAt = (): number => chosenAt

  return { request, visible, choose, finish, lastChosenAt }
})

/** The longest an answered dialog stays before it leaves, when no frame comes (a hidden page). */
const LEAVE_WITHIN_MS = 100
