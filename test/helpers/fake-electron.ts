/*
 * A FAKE `electron` module for tests of src/main/index.ts, the Electron shell: the Electron
 * binary cannot be downloaded here, so app, BrowserWindow, ipcMain, session, protocol, Menu,
 * Tray, dialog, clipboard, screen and the rest are stand-ins recording what the shell asks of
 * them, and letting a test drive the app's events. Use it with
 *   vi.mock('electron', async () => (await import('../helpers/fake-electron')).electronModule())
 * and read or drive `fakeElectron` from the test (one per test file: vitest isolates files).
 */

type Listener = (...args: unknown[]) => unknown

export interface FakeWindowRecord {
  readonly options: Record<string, unknown>
  readonly loaded: string[]
  /** Events the shell sent to the page (webContents.send). */
  readonly sent: { channel: string; payload: unknown }[]
  readonly handlers: Map<string, Listener[]>
  readonly contentsHandlers: Map<string, Listener>
  openHandler: Listener | null
  maximized: boolean
  shown: number
  bounds: { x: number; y: number; width: number; height: number }
}

const state = {
  ready: null as null | (() => void),
  isPackaged: false,
  appPath: '',
  home: '',
  paths: new Map<string, string>(),
  singleInstanceLock: true,
  appHandlers: new Map<string, Listener[]>(),
  ipcHandlers: new Map<string, Listener>(),
  windows: [] as FakeWindowRecord[],
  headersHook: null as Listener | null,
  permissionRequest: null as Listener | null,
  permissionCheck: null as Listener | null,
  protocolHandler: null as Listener | null,
  privileged: [] as unknown[],
  opened: [] as string[],
  openedPaths: [] as string[],
  protocolClients: [] as string[],
  trays: 0,
  trayMenus: [] as unknown[],
  applicationMenus: [] as unknown[],
  aboutPanel: null as unknown,
  badgeCounts: [] as number[],
  clipboard: [] as string[],
  dialogs: [] as Record<string, unknown>[],
  /** The button a message box answers with. */
  dialogResponse: 0,
  displays: [{ workArea: { x: 0, y: 0, width: 1920, height: 1050 } }],
  quits: 0,
}

const windows: FakeBrowserWindow[] = []

function on(map: Map<string, Listener[]>, event: string, handler: Listener): void {
  map.set(event, [...(map.get(event) ?? []), handler])
}

class FakeWebContents {
  constructor(private readonly record: FakeWindowRecord) {}
  setWindowOpenHandler(handler: Listener): void {
    this.record.openHandler = handler
  }
  on(event: string, handler: Listener): void {
    this.record.contentsHandlers.set(event, handler)
  }
  send(channel: string, payload: unknown): void {
    this.record.sent.push({ channel, payload })
  }
}

class FakeBrowserWindow {
  static getAllWindows(): FakeBrowserWindow[] {
    return windows
  }
  readonly webContents: FakeWebContents
  readonly record: FakeWindowRecord
  constructor(options: Record<string, unknown>) {
    const bounds = {
      x: Number(options.x ?? 100),
      y: Number(options.y ?? 100),
      width: Number(options.width),
      height: Number(options.height),
    }
    this.record = {
      options,
      loaded: [],
      sent: [],
      handlers: new Map(),
      contentsHandlers: new Map(),
      openHandler: null,
      maximized: false,
      shown: 0,
      bounds,
    }
    state.windows.push(this.record)
    this.webContents = new FakeWebContents(this.record)
    windows.push(this)
  }
  async loadURL(url: string): Promise<void> {
    this.record.loaded.push(url)
  }
  on(event: string, handler: Listener): void {
    on(this.record.handlers, event, handler)
  }
  /** Fires a window event as Electron would (resize, move, maximize, close…). */
  emit(event: string): void {
    for (const handler of this.record.handlers.get(event) ?? []) handler({})
  }
  isMinimized(): boolean {
    return false
  }
  isDestroyed(): boolean {
    return false
  }
  isMaximized(): boolean {
    return this.record.maximized
  }
  maximize(): void {
    this.record.maximized = true
  }
  getNormalBounds(): FakeWindowRecord['bounds'] {
    return this.record.bounds
  }
  restore(): void {}
  show(): void {
    this.record.shown++
  }
  focus(): void {}
}

const electron = {
  app: {
    whenReady: () => new Promise<void>((resolve) => (state.ready = resolve)),
    on: (event: string, handler: Listener) => on(state.appHandlers, event, handler),
    getPath: (name: string) =>
      name === 'home' ? state.home : (state.paths.get(name) ?? state.paths.get('userData') ?? ''),
    setPath: (name: string, value: string) => void state.paths.set(name, value),
    getAppPath: () => state.appPath,
    getVersion: () => '0.1.0',
    get isPackaged() {
      return state.isPackaged
    },
    quit: () => void state.quits++,
    setAppUserModelId: () => undefined,
    requestSingleInstanceLock: () => state.singleInstanceLock,
    setAsDefaultProtocolClient: (scheme: string) => void state.protocolClients.push(scheme),
    setBadgeCount: (count: number) => void state.badgeCounts.push(count),
    setAboutPanelOptions: (options: unknown) => void (state.aboutPanel = options),
  },
  BrowserWindow: FakeBrowserWindow,
  ipcMain: { handle: (channel: string, handler: Listener) => state.ipcHandlers.set(channel, handler) },
  Menu: {
    buildFromTemplate: (items: unknown) => items,
    setApplicationMenu: (menu: unknown) => void state.applicationMenus.push(menu),
  },
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
  screen: { getAllDisplays: () => state.displays },
  shell: {
    openExternal: async (url: string) => void state.opened.push(url),
    openPath: async (path: string) => (state.openedPaths.push(path), ''),
  },
  clipboard: { writeText: (text: string) => void state.clipboard.push(text) },
  dialog: {
    showMessageBox: async (options: Record<string, unknown>) => {
      state.dialogs.push(options)
      return { response: state.dialogResponse, checkboxChecked: false }
    },
  },
  Tray: class {
    constructor() {
      state.trays++
    }
    setToolTip(): void {}
    setContextMenu(menu: unknown): void {
      state.trayMenus.push(menu)
    }
    destroy(): void {}
  },
}

export const fakeElectron = { state, windows }

/** The module object vi.mock('electron', …) returns. */
export function electronModule(): Record<string, unknown> {
  return { ...electron, default: electron }
}

/** Calls the app's handlers for `event` as Electron would, awaiting each. */
export async function emitAppEvent(event: string, ...args: unknown[]): Promise<void> {
  for (const handler of state.appHandlers.get(event) ?? []) await handler(...args)
}

/** Waits until `done()` holds (polling every 25 ms, up to 20 s). */
export async function until(done: () => boolean, what = 'the condition'): Promise<void> {
  for (let i = 0; i < 800; i++) {
    if (done()) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** Quits the app as Electron would: will-quit until the shell lets it go (it stops core and the server first). */
export async function quitApp(): Promise<void> {
  const before = state.quits
  await emitAppEvent('will-quit', { preventDefault: () => undefined })
  await until(() => state.quits > before, 'the shell to quit')
}
