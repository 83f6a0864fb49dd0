import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { EVENT_CHANNELS, REQUEST_CHANNELS, type BurrowBridge } from '../../src/shared/ipc/contract'

/*
 * src/preload/index.ts under a FAKE `electron` module: the Electron binary cannot run here, so
 * contextBridge and ipcRenderer are stand-ins that record what the preload gives the page and
 * what it sends to main. What is tested is the preload's own code: it exposes `window.burrow`
 * and nothing else, with exactly the contract's channels.
 */

const fake = vi.hoisted(() => {
  const exposed: { key: string; api: unknown }[] = []
  const invoked: unknown[][] = []
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>()
  return {
    exposed,
    invoked,
    listeners,
    electron: {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.push({ key, api }) },
      ipcRenderer: {
        invoke: async (...args: unknown[]) => {
          invoked.push(args)
          return { ok: true, result: 'from main' }
        },
        on: (event: string, listener: (...args: unknown[]) => void) => {
          if (!listeners.has(event)) listeners.set(event, new Set())
          listeners.get(event)?.add(listener)
        },
        off: (event: string, listener: (...args: unknown[]) => void) => listeners.get(event)?.delete(listener),
      },
    },
  }
})

vi.mock('electron', () => fake.electron)

/** The bridge as the page's untyped code could call it (any channel name, any arguments). */
interface LooseBridge {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  on(event: string, listener: (...args: unknown[]) => void): () => void
}

let bridge: LooseBridge

beforeAll(async () => {
  await import('../../src/preload/index')
  bridge = fake.exposed[0]?.api as BurrowBridge as unknown as LooseBridge
})

beforeEach(() => {
  fake.invoked.length = 0
})

describe('the preload (fake electron module)', () => {
  it('exposes one object, window.burrow, with invoke and on only', () => {
    expect(fake.exposed.map((e) => e.key)).toEqual(['burrow'])
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on'])
  })

  it('forwards every request channel of the contract to main with its arguments', async () => {
    for (const channel of REQUEST_CHANNELS) {
      expect(await bridge.invoke(channel, 'a', { b: 1 })).toEqual({ ok: true, result: 'from main' })
    }
    expect(fake.invoked).toEqual(REQUEST_CHANNELS.map((channel) => [channel, 'a', { b: 1 }]))
  })

  it('answers a channel outside the contract itself, without reaching main', async () => {
    for (const channel of ['fs:read', '__proto__', 'constructor', 'electron:open', 'app:info ']) {
      expect(await bridge.invoke(channel)).toMatchObject({ ok: false, error: { code: 'unknown-channel' } })
    }
    expect(fake.invoked).toEqual([])
  })

  it('subscribes to every event of the contract, hands the page the payload only, and unsubscribes', () => {
    for (const event of EVENT_CHANNELS) {
      const received: unknown[][] = []
      const off = bridge.on(event, (...args: unknown[]) => received.push(args))
      const [listener] = [...(fake.listeners.get(event) ?? [])]
      listener({ sender: 'the IpcRendererEvent' }, { payload: event })
      expect(received).toEqual([[{ payload: event }]])
      off()
      expect(fake.listeners.get(event)?.size).toBe(0)
    }
  })

  it('refuses to subscribe to an event outside the contract', () => {
    expect(() => bridge.on('ipc:raw', () => undefined)).toThrow(/Unknown event/)
    expect(fake.listeners.has('ipc:raw')).toBe(false)
  })
})
