// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { takeSecret, wrapBridge } from '../../src/renderer/bridge'
import { wireUrl } from '../../src/renderer/ws-client'
import { IpcFailure, type BurrowBridge } from '../../src/shared/ipc/contract'

describe('takeSecret', () => {
  it('takes the secret from the fragment, removes it from the address bar and keeps it for reloads', () => {
    window.history.replaceState(null, '', '/index.html#secret=abc%2Bdef')
    expect(takeSecret(window)).toBe('abc+def')
    expect(window.location.hash).toBe('')
    expect(takeSecret(window)).toBe('abc+def')
  })
})

describe('wireUrl', () => {
  it('points at /ipc on the same host with the secret encoded', () => {
    expect(wireUrl({ protocol: 'http:', host: '127.0.0.1:5000' }, 'a b')).toBe('ws://127.0.0.1:5000/ipc?secret=a%20b')
  })
})

describe('wrapBridge', () => {
  it('turns an error envelope into a thrown IpcFailure carrying code and details', async () => {
    const raw: BurrowBridge = {
      invoke: async () => ({
        ok: false,
        error: { code: 'invalid-arguments', message: 'bad', details: { channel: 'app:info' } },
      }),
      on: () => () => undefined,
    }
    const failure = await wrapBridge(raw, 'websocket')
      .request('app:info')
      .catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(IpcFailure)
    expect(failure).toMatchObject({ code: 'invalid-arguments', message: 'bad', details: { channel: 'app:info' } })
  })
})
