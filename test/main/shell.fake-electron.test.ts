import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { REQUEST_CHANNELS } from '../../src/shared/ipc/contract'
import { fakeElectron, quitApp, until } from '../helpers/fake-electron'

/*
 * src/main/index.ts, the Electron shell, under a FAKE `electron` module (test/helpers/fake-electron.ts):
 * the Electron binary cannot be downloaded here, so app, BrowserWindow, ipcMain, session,
 * protocol and the rest are stand-ins recording what the shell asks of them. The core behind it
 * is the real one (launchCore on a temp data folder). What is tested is the shell's own
 * hardening and wiring; test/main/packaged.fake-electron.test.ts covers the packaged app's parts.
 */

type Listener = (...args: unknown[]) => unknown

vi.mock('electron', async () => (await import('../helpers/fake-electron')).electronModule())

const { state } = fakeElectron
let folder = ''

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'burrow-shell-'))
  state.home = folder
  // An app without a compiled server (as `electron .` from a checkout): no local server.
  state.appPath = folder
  // The shell's data folders (the app's data, its log) land under the OS's application-data folder.
  process.env.XDG_DATA_HOME = join(folder, 'data')
  delete process.env.BURROW_SERVER_URL
  delete process.env.BURROW_APP_DATA_DIR
  delete process.env.ELECTRON_RENDERER_URL
  await import('../../src/main/index')
  state.ready?.()
  await until(() => state.windows.length > 0 && state.trays > 0, 'the window and the tray')
})

afterAll(async () => {
  await quitApp()
  rmSync(folder, { recursive: true, force: true })
})

/** Calls an IPC handler as Electron would, from a frame at `frameUrl`. */
async function invoke(channel: string, frameUrl: string | undefined, ...args: unknown[]): Promise<unknown> {
  const handler = state.ipcHandlers.get(channel)
  if (handler === undefined) throw new Error(`no handler for ${channel}`)
  return handler({ senderFrame: frameUrl === undefined ? undefined : { url: frameUrl } }, ...args)
}

describe('the Electron shell (fake electron module)', () => {
  it('opens one window with context isolation, the sandbox and no Node integration, on its own scheme', () => {
    expect(state.windows).toHaveLength(1)
    expect(state.windows[0].options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    })
    expect(state.windows[0].loaded).toEqual(['burrow://app/index.html'])
    expect(state.privileged).toEqual([expect.objectContaining({ scheme: 'burrow' })])
    expect(state.trays).toBe(1)
  })

  it('handles exactly the contract’s request channels', () => {
    expect([...state.ipcHandlers.keys()].sort()).toEqual([...REQUEST_CHANNELS].sort())
  })

  it('answers IPC from its own page and refuses it from any other frame', async () => {
    expect(await invoke('app:info', 'burrow://app/index.html')).toMatchObject({
      ok: true,
      result: { mode: 'electron' },
    })
    for (const frame of [
      'https://attacker.example/',
      'file:///etc/passwd',
      'burrow://other/x',
      'not a url',
      undefined,
    ]) {
      expect(await invoke('app:info', frame)).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    }
  })

  it('validates IPC arguments in main', async () => {
    expect(await invoke('accounts:remove', 'burrow://app/index.html', { id: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' },
    })
  })

  it('denies every permission request and check', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      const callback = vi.fn()
      state.permissionRequest?.({}, permission, callback)
      expect(callback).toHaveBeenCalledWith(false)
      expect(state.permissionCheck?.({}, permission)).toBe(false)
    }
  })

  it('adds the strict CSP to every response, and to the files of its scheme', async () => {
    let headers: Record<string, unknown> = {}
    state.headersHook?.(
      { responseHeaders: { 'X-Other': ['1'] } },
      (result: { responseHeaders: Record<string, unknown> }) => (headers = result.responseHeaders),
    )
    expect(headers['Content-Security-Policy']).toEqual([expect.stringContaining("default-src 'self'")])
    expect(String((headers['Content-Security-Policy'] as string[])[0])).not.toMatch(/unsafe-eval/)
    const missing = (await state.protocolHandler?.(new Request('burrow://app/no-such-file.js'))) as Response
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-security-policy')).toContain("default-src 'self'")
  })

  it('blocks new windows (web links go to the system browser), navigation away and webviews', () => {
    const window = state.windows[0]
    expect(window.openHandler?.({ url: 'https://gitlab.example/issue/1' })).toEqual({ action: 'deny' })
    expect(window.openHandler?.({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' })
    expect(state.opened).toEqual(['https://gitlab.example/issue/1'])
    const away = { preventDefault: vi.fn() }
    window.contentsHandlers.get('will-navigate')?.(away, 'https://attacker.example/')
    expect(away.preventDefault).toHaveBeenCalled()
    const inside = { preventDefault: vi.fn() }
    window.contentsHandlers.get('will-navigate')?.(inside, 'burrow://app/index.html#/issues')
    expect(inside.preventDefault).not.toHaveBeenCalled()
    const webview = { preventDefault: vi.fn() }
    window.contentsHandlers.get('will-attach-webview')?.(webview)
    expect(webview.preventDefault).toHaveBeenCalled()
    let denied: unknown = null
    for (const created of state.appHandlers.get('web-contents-created') ?? [])
      created({}, { setWindowOpenHandler: (h: Listener) => (denied = h({ url: 'https://x.example' })) })
    expect(denied).toEqual({ action: 'deny' })
  })
})
