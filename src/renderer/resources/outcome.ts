import type { ApiSendResult } from '../../shared/ipc/api'
import { valueAt } from './paths'
import type { Outcome as OutcomeKind } from './types'

/** What the last write did: a sentence, a secret shown once, or the answer's fields (a dry run's findings). */
export type Outcome =
  | { readonly kind: 'message'; readonly text: string }
  | { readonly kind: 'secret'; readonly text: string; readonly secret: string; readonly what: string }
  | { readonly kind: 'show'; readonly text: string; readonly body: unknown }

/**
 * What to show after a successful write. A `secret` answer is read once from the result's
 * `secretField` (default `token`) and handed to the component that shows it: nothing else keeps it.
 */
export function outcomeOf(
  kind: OutcomeKind | undefined,
  text: string | undefined,
  result: ApiSendResult,
  what: string,
  secretField = 'token',
): Outcome {
  const sentence = text ?? 'Done.'
  if (kind === 'secret') {
    const secret = valueAt(result.body, secretField)
    if (typeof secret === 'string' && secret !== '') return { kind: 'secret', text: sentence, secret, what }
    return { kind: 'message', text: `${sentence} The server sent no ${what} to show.` }
  }
  if (kind === 'show') return { kind: 'show', text: sentence, body: result.body }
  return { kind: 'message', text: sentence }
}
