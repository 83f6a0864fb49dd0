import type { EventChannel, IpcEvents } from '../../shared/ipc/contract'

export type EventListener = <E extends EventChannel>(event: E, payload: IpcEvents[E]) => void

/** Where core announces `domain:did-…` events; each transport subscribes and forwards them. */
export interface EventHub {
  emit<E extends EventChannel>(event: E, payload: IpcEvents[E]): void
  /** Returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void
}

export function createEventHub(): EventHub {
  const listeners = new Set<EventListener>()
  return {
    emit(event, payload) {
      for (const listener of listeners) {
        // One broken transport must not keep the event from the others.
        try {
          listener(event, payload)
        } catch {
          /* ignored on purpose */
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
