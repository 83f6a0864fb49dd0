import { describe, expect, it } from 'vitest'
import { createCore } from '../../src/main/core/index'
import type { ServerStatus } from '../../src/shared/ipc/contract'
import { startServer } from '../helpers/server'

describe('core handlers', () => {
  it('reports the server reachable, then unreachable once it stops, with a server:did-change-status event', async () => {
    const server = await startServer()
    const core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: server.url })
    const events: ServerStatus[] = []
    core.events.subscribe((event, payload) => {
      if (event === 'server:did-change-status') events.push(payload)
    })

    const up = await core.dispatch('server:status', [])
    expect(up).toMatchObject({ ok: true, result: { state: 'reachable', url: server.url } })

    await server.close()
    const down = await core.dispatch('server:status', [])
    expect(down).toMatchObject({ ok: true, result: { state: 'unreachable', version: null } })
    expect(events).toEqual([{ url: server.url, state: 'unreachable', version: null, revision: null }])
  })

  it("reports 'none' when no local server runs", async () => {
    const core = createCore({ version: '0.1.0', mode: 'electron', serverUrl: null })
    expect(await core.dispatch('server:status', [])).toEqual({
      ok: true,
      result: { url: null, state: 'none', version: null, revision: null },
    })
  })

  it('answers a channel name inherited from Object.prototype as unknown, not as a handler', async () => {
    const core = createCore({ version: '0.1.0', mode: 'electron', serverUrl: null })
    expect(await core.dispatch('toString', [])).toMatchObject({ ok: false, error: { code: 'unknown-channel' } })
  })
})
