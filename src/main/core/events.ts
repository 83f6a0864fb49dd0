import type { EventChannel, IpcEvents } from '../../shared/ipc/contract'

/**
 * A listener of every event. Its arguments are a union of `[event, payload]` pairs, so checking
 * `event` narrows `payload`; a generic `<E>(event: E, payload: IpcEvents[E])` function fits too.
 */
export type EventListener = (...args: { [E in EventChannel]: [event: E, payload: IpcEvents[E]] }[EventChannel]) => void

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
      // `event` and `payload` belong together by emit's signature; the listener type spells the pairs out.
      const args = [event, payload] as Parameters<EventListener>
      for (const listener of listeners) {
        // One broken transport must not keep the event from the others.
        try {
          listener(...args)
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
