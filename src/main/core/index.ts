import { createDispatcher } from './dispatch'
import { createEventHub, type EventHub } from './events'
import { createHandlers, type CoreOptions } from './handlers'
import type { IpcResponse } from '../../shared/ipc/contract'

export interface Core {
  /** Validates and runs one request; never throws. */
  readonly dispatch: (channel: unknown, args: unknown) => Promise<IpcResponse>
  readonly events: EventHub
}

/** Everything behind the IPC contract, wired once per launch; both shells call this. */
export function createCore(options: Omit<CoreOptions, 'events'>): Core {
  const events = createEventHub()
  const dispatch = createDispatcher(createHandlers({ ...options, events }))
  return { dispatch, events }
}
