import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { REQUEST_CHANNELS } from '../../src/shared/ipc/contract'

/*
 * src/main/index.ts, the Electron shell, under a FAKE `electron` module: the Electron binary
 * cannot be downloaded here, so app, BrowserWindow, ipcMain, session, protocol and the rest are
 * stand-ins recording what the shell asks of them. The core behind it is the real one
 * (launchCore on a temp user data dir). What is tested is the shell's own hardening and wiring.
 */

type Listener = (...args: unknown[]) => unknown

const fake = vi.hoisted(() => {
  const state = {
    userData: '',
    ready: null as null | (() => void),
    appHandlers: new Map<string, Listener[]>(),
    ipcHandlers: new Map<string, Listener>(),
    windows: [] as { options: Record<string, unknown>; loaded: string[]; openHandler: Listener | null; contentsHandlers: Map<string, Listener> }[],
    headersHook: null as Listener | null,
    permissionRequest: null as Listener | null,
    permissionCheck: null as Listener | null,
    protocolHandler: null as Listener | null,
    privileged: [] as unknown[],
    opened: [] as string[],
    trays: 0,
  }
  class FakeWebContents {
    constructor(private readonly w: (typeof state.windows)[number]) {}
    setWindowOpenHandler(handler: Listener): void {
      this.w.openHandler = handler
    }
    on(event: string, handler: Listener): void {
      this.w.contentsHandlers.set(event, handler)
    }
    send(): void {}
  }
  class BrowserWindow {
    static getAllWindows(): BrowserWindow[] {
      return windows
    }
    readonly webContents: FakeWebContents
    private readonly record: (typeof state.windows)[number]
    constructor(options: Record<string, unknown>) {
      this.record = { options, loaded: [], openHandler: null, contentsHandlers: new Map() }
      state.windows.push(this.record)
      this.webContents = new FakeWebContents(this.record)
      windows.push(this)
    }
    async loadURL(url: string): Promise<void> {
      this.record.loaded.push(url)
    }
    isMinimized(): boolean {
      return false
    }
    restore(): void {}
    show(): void {}
    focus(): void {}
  }
  const windows: BrowserWindow[] = []
  const electron = {
    app: {
      whenReady: () => new Promise<void>((resolve) => (state.ready = resolve)),
      on: (event: string, handler: Listener) => state.appHandlers.set(event, [...(state.appHandlers.get(event) ?? []), handler]),
      getPath: () => state.userData,
      getVersion: () => '0.1.0',
      quit: () => undefined,
      setAppUserModelId: () => undefined,
    },
    BrowserWindow,
    ipcMain: { handle: (channel: string, handler: Listener) => state.ipcHandlers.set(channel, handler) },
    Menu: { buildFromTemplate: (items: unknown) => items },
    nativeImage: { createFromPath: () => ({}) },
    Notification: class {
      static isSupported(): boolean {
        return false
      }
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => state.privileged.push(...schemes),
      handle: (_scheme: string, handler: Listener) => (state.protocolHandler = handler),
    },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: (hook: Listener) => (state.headersHook = hook) },
        setPermissionRequestHandler: (handler: Listener) => (state.permissionRequest = handler),
        setPermissionCheckHandler: (handler: Listener) => (state.permissionCheck = handler),
      },
    },
    shell: { openExternal: async (url: string) => void state.opened.push(url) },
    Tray: class {
      constructor() {
        state.trays++
      }
      setToolTip(): void {}
      setContextMenu(): void {}
      destroy(): void {}
    },
  }
  return { state, electron }
})

vi.mock('electron', () => ({ ...fake.electron, default: fake.electron }))

const { state } = fake

beforeAll(async () => {
  state.userData = mkdtempSync(join(tmpdir(), 'burrow-shell-'))
  delete process.env.BURROW_SERVER_URL
  delete process.env.ELECTRON_RENDERER_URL
  await import('../../src/main/index')
  state.ready?.()
  for (let i = 0; i < 200 && (state.windows.length === 0 || state.trays === 0); i++) await new Promise((r) => setTimeout(r, 25))
})

afterAll(async () => {
  for (const quit of state.appHandlers.get('will-quit') ?? []) await quit()
  await new Promise((r) => setTimeout(r, 100))
  rmSync(state.userData, { recursive: true, force: true })
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
    expect(state.windows[0].options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true })
    expect(state.windows[0].loaded).toEqual(['burrow://app/index.html'])
    expect(state.privileged).toEqual([expect.objectContaining({ scheme: 'burrow' })])
    expect(state.trays).toBe(1)
  })

  it('handles exactly the contract’s request channels', () => {
    expect([...state.ipcHandlers.keys()].sort()).toEqual([...REQUEST_CHANNELS].sort())
  })

  it('answers IPC from its own page and refuses it from any other frame', async () => {
    expect(await invoke('app:info', 'burrow://app/index.html')).toMatchObject({ ok: true, result: { mode: 'electron' } })
    for (const frame of ['https://attacker.example/', 'file:///etc/passwd', 'burrow://other/x', 'not a url', undefined]) {
      expect(await invoke('app:info', frame)).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    }
  })

  it('validates IPC arguments in main', async () => {
    expect(await invoke('accounts:remove', 'burrow://app/index.html', { id: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
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
    state.headersHook?.({ responseHeaders: { 'X-Other': ['1'] } }, (result: { responseHeaders: Record<string, unknown> }) => (headers = result.responseHeaders))
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
    for (const created of state.appHandlers.get('web-contents-created') ?? []) created({}, { setWindowOpenHandler: (h: Listener) => (denied = h({ url: 'https://x.example' })) })
    expect(denied).toEqual({ action: 'deny' })
  })
})
