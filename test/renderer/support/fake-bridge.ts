import { wrapBridge, type Bridge } from '../../../src/renderer/bridge'
import type { BurrowBridge, EventChannel, IpcEvents, IpcResponse } from '../../../src/shared/ipc/contract'

export interface FakeTransport {
  readonly bridge: Bridge
  /** Every request made, in order: channel and arguments. */
  readonly calls: { channel: string; args: readonly unknown[] }[]
  /** Pushes an event to the subscribers, as main would. */
  emit<E extends EventChannel>(event: E, payload: IpcEvents[E]): void
}

type Answer = IpcResponse | ((...args: readonly unknown[]) => IpcResponse | Promise<IpcResponse>)

/**
 * A fake of the preload's transport (Electron cannot run here) answering from a table; the
 * renderer's real wrapBridge sits on top, so failures still arrive as IpcFailure.
 */
export function fakeTransport(answers: Record<string, Answer>): FakeTransport {
  const calls: { channel: string; args: readonly unknown[] }[] = []
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  const raw = {
    invoke: async (channel: string, ...args: readonly unknown[]): Promise<IpcResponse> => {
      calls.push({ channel, args })
      const answer = answers[channel]
      if (answer === undefined) return { ok: false, error: { code: 'unknown-channel', message: channel } }
      return typeof answer === 'function' ? answer(...args) : answer
    },
    on: (event: string, listener: (payload: unknown) => void) => {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
      return () => set.delete(listener)
    },
  } as unknown as BurrowBridge
  return {
    bridge: wrapBridge(raw, 'electron'),
    calls,
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) listener(payload)
    },
  }
}

export const LOCAL_INFO: IpcResponse = {
  ok: true,
  result: { version: '0.1.0', mode: 'electron', serverUrl: 'http://127.0.0.1:4567', localAccount: false },
}
/** A launch of `npm start`: core holds the local server's credential. */
export const LOCAL_INFO_SIGNED_IN: IpcResponse = {
  ok: true,
  result: { version: '0.1.0', mode: 'browser', serverUrl: 'http://127.0.0.1:4567', localAccount: true },
}
export const LOCAL_STATUS: IpcResponse = {
  ok: true,
  result: { url: 'http://127.0.0.1:4567', state: 'reachable', version: '17.6.0', revision: 'burrow' },
}

export const ROOT_ACCOUNT = {
  id: 'acc-root',
  baseUrl: 'http://127.0.0.1:4567',
  username: 'root',
  userId: 1,
  name: 'Administrator',
  avatarUrl: null,
  authKind: 'pat',
  addedAt: '2024-01-01T00:00:00Z',
} as const
