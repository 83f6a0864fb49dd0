import { shallowRef, type ShallowRef } from 'vue'
import type { ActionDone } from '../components/resource/ResourceActions.vue'
import type { ReadableError } from '../lib/ipc-errors'
import { outcomeOf, type Outcome } from '../resources/outcome'

export interface ActionOutcome {
  /** What the last action answered (a sentence, the new item, a secret shown once), until closed. */
  readonly outcome: ShallowRef<Outcome | null>
  /** Why the last action a button sent directly was refused, until dismissed. */
  readonly actionError: ShallowRef<ReadableError | null>
  onFailed(failure: ReadableError): void
  /** Shows what a finished action answered, as its description says (`outcome`, `done`). */
  showOutcome(done: ActionDone): void
}

/** The answer of a resource panel's last action, shown by the list or detail that ran it. */
export function useActionOutcome(singular: () => string): ActionOutcome {
  const outcome = shallowRef<Outcome | null>(null)
  const actionError = shallowRef<ReadableError | null>(null)
  function onFailed(failure: ReadableError): void {
    outcome.value = null
    actionError.value = failure
  }
  function showOutcome(done: ActionDone): void {
    actionError.value = null
    outcome.value = outcomeOf(
      done.action.outcome,
      typeof done.action.done === 'function' ? done.action.done(done.result.body) : done.action.done,
      done.result,
      singular(),
    )
  }
  return { outcome, actionError, onFailed, showOutcome }
}
