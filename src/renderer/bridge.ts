import { inject, type InjectionKey } from 'vue'
import {
  IpcFailure,
  type BurrowBridge,
  type EventChannel,
  type IpcEvents,
  type RequestArgs,
  type RequestChannel,
  type RequestResult,
} from '../shared/ipc/contract'
import { createWebSocketBridge, wireUrl } from './ws-client'

/** What the rest of the renderer uses: requests that throw IpcFailure instead of returning envelopes. */
export interface Bridge {
  readonly transport: 'electron' | 'websocket'
  request<C extends RequestChannel>(channel: C, ...args: RequestArgs<C>): Promise<RequestResult<C>>
  on<E extends EventChannel>(event: E, listener: (payload: IpcEvents[E]) => void): () => void
}

export const bridgeKey: InjectionKey<Bridge> = Symbol('burrow-bridge')

/** Wraps either transport (window.burrow or the WebSocket client) into a Bridge. */
export function wrapBridge(raw: BurrowBridge, transport: Bridge['transport']): Bridge {
  return {
    transport,
    async request(channel, ...args) {
      const response = await raw.invoke(channel, ...args)
      if (!response.ok) throw new IpcFailure(response.error)
      return response.result
    },
    on: (event, listener) => raw.on(event, listener),
  }
}

const SECRET_KEY = 'burrow.secret'

/**
 * Takes the web host's launch secret from the URL fragment (`#secret=…`), keeps it for reloads
 * in sessionStorage and removes it from the address bar before the router reads the hash.
 */
export function takeSecret(win: Window): string | null {
  const match = /^#secret=([^&]+)/.exec(win.location.hash)
  if (match) {
    const secret = decodeURIComponent(match[1] ?? '')
    win.sessionStorage.setItem(SECRET_KEY, secret)
    win.history.replaceState(null, '', win.location.pathname + win.location.search)
    return secret
  }
  return win.sessionStorage.getItem(SECRET_KEY)
}

/** window.burrow in Electron; otherwise the WebSocket back to the web host that served the page. */
export function createBridge(win: Window = window): Bridge {
  if (win.burrow !== undefined) return wrapBridge(win.burrow, 'electron')
  const secret = takeSecret(win)
  if (secret === null) {
    return wrapBridge(
      {
        invoke: async () => ({
          ok: false,
          error: { code: 'unavailable', message: 'No launch secret: open the address printed by `npm start`.' },
        }),
        on: () => () => undefined,
      },
      'websocket',
    )
  }
  return wrapBridge(createWebSocketBridge(wireUrl(win.location, secret)), 'websocket')
}

/** The app's bridge, provided by main.ts (and by tests). */
export function useBridge(): Bridge {
  const bridge = inject(bridgeKey)
  if (bridge === undefined) throw new Error('No bridge provided')
  return bridge
}
