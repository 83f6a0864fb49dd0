import { existsSync } from 'node:fs'
import { join } from 'node:path'
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  protocol,
  screen,
  session,
  shell,
  Tray,
  type MenuItemConstructorOptions,
} from 'electron'
import { REQUEST_CHANNELS, type Account, type EventChannel, type IpcEvents } from '../shared/ipc/contract'
import type { NotifySummary } from '../shared/ipc/notify'
import { contentSecurityPolicy } from './core/csp'
import type { Core } from './core/index'
import { launchCore, type Launch } from './core/launch'
import { trayModel } from './core/notify/index'
import { dataFolders, launcherStateFileFor } from './core/shell/data-folders'
import { deepLinkFromArgv, DEEP_LINK_SCHEME, resolveDeepLink, type ApiGet } from './core/shell/deep-links'
import { startEmbeddedServer, type EmbeddedServer } from './core/shell/local-server'
import { DailyLog, teeConsole } from './core/shell/log-file'
import { BADGE_DOT_SIZE, showTodoBadge } from './core/shell/badge'
import { aboutPanelOptions, applicationMenuTemplate } from './core/shell/menu'
import { updatePolicy, wireUpdates, type Updater } from './core/shell/updates'
import { MIN_SIZE, placeWindow, readWindowState, writeWindowState } from './core/shell/window-state'
import { readStaticFile } from './core/static-files'

/*
 * The Electron shell, kept thin on purpose: windows, tray, menu, security settings and the IPC
 * wiring. Everything the app does lives in ./core, which runs (and is tested) without Electron;
 * the packaged app's decisions (data folders, the embedded server, deep links, window state,
 * updates, the log) are plain modules in ./core/shell.
 * scripts/start.mjs passes the local Burrow Server's URL in BURROW_SERVER_URL and this launch's
 * root token in BURROW_LOCAL_SERVER_TOKEN (core's `local` account signs in with it), and the
 * app's data folder in BURROW_APP_DATA_DIR. Without them (the packaged app) the shell starts
 * its own server, out/server/cli.cjs, with this same binary (core/shell/local-server.ts).
 */

/** The launcher's server, read once; the token leaves the environment so no child process inherits it. */
const localServer = ((): { baseUrl: string; token: string } | null => {
  const baseUrl = process.env.BURROW_SERVER_URL
  const token = process.env.BURROW_LOCAL_SERVER_TOKEN
  delete process.env.BURROW_LOCAL_SERVER_TOKEN
  return baseUrl && token ? { baseUrl, token } : null
})()

const SCHEME = 'burrow'
const folders = dataFolders({ platform: process.platform, home: app.getPath('home'), env: process.env })
// Before anything reads it: Electron's userData is the app's data folder, the same as `npm start`'s.
app.setPath('userData', process.env.BURROW_APP_DATA_DIR || folders.app)
const log = new DailyLog({ dir: folders.logs })
teeConsole(log)
const rendererDir = join(__dirname, '../renderer')
const devServerUrl = process.env.ELECTRON_RENDERER_URL
const csp = contentSecurityPolicy(devServerUrl ? [devServerUrl.replace(/^http/, 'ws')] : [])

protocol.registerSchemesAsPrivileged([
  { scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
])

// Created once the app is ready: the accounts service reads the user data dir.
let core: Core
let launch: Launch | null = null
let embeddedServer: EmbeddedServer | null = null
let stopUpdates: (() => void) | null = null
let tray: Tray | null = null
/** Deep links that arrived before core was ready (macOS sends open-url early). */
const pendingLinks: string[] = []
/** Shown notifications, kept referenced: one collected by the GC loses its click handler. */
const notifications = new Set<Notification>()

/**
 * `scheme://host[:port]` of a URL, or null when it is not one. Built from its parts because
 * Node's URL (the one main runs) gives every custom scheme the origin "null": comparing
 * `.origin` would take `burrow://app` for any other custom-scheme page, and refuse our own.
 */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url)
    return parsed.host === '' ? null : `${parsed.protocol}//${parsed.host}`
  } catch {
    return null
  }
}

function pageOrigin(): string {
  return (devServerUrl && originOf(devServerUrl)) || `${SCHEME}://app`
}

/** Only our own page may call the contract: not an iframe, not a page we navigated away to. */
function trustedSender(frameUrl: string | undefined): boolean {
  return frameUrl !== undefined && originOf(frameUrl) === pageOrigin()
}

function hardenSession(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } })
  })
  session.defaultSession.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false))
  session.defaultSession.setPermissionCheckHandler(() => false)
  protocol.handle(SCHEME, async (request) => {
    const file = await readStaticFile(rendererDir, new URL(request.url).pathname)
    if (file === null) return new Response('Not found', { status: 404, headers: { 'Content-Security-Policy': csp } })
    return new Response(new Uint8Array(file.body), {
      headers: { 'Content-Type': file.contentType, 'Content-Security-Policy': csp },
    })
  })
}

function wireIpc(): void {
  for (const channel of REQUEST_CHANNELS) {
    ipcMain.handle(channel, (event, ...args: unknown[]) => {
      if (!trustedSender(event.senderFrame?.url)) {
        return { ok: false, error: { code: 'forbidden', message: 'IPC from an untrusted frame' } }
      }
      return core.dispatch(channel, args)
    })
  }
  core.events.subscribe(<E extends EventChannel>(event: E, payload: IpcEvents[E]) => {
    for (const window of BrowserWindow.getAllWindows()) window.webContents.send(event, payload)
  })
}

const windowStateFile = (): string => join(app.getPath('userData'), 'window-state.json')

/** Saves the window's size, position and maximized state when they change (at most twice a second) and when it closes. */
function keepWindowState(window: BrowserWindow): void {
  const save = (): void => {
    if (!window.isDestroyed())
      writeWindowState(windowStateFile(), { bounds: window.getNormalBounds(), maximized: window.isMaximized() })
  }
  let pending: NodeJS.Timeout | null = null
  const later = (): void => {
    if (pending !== null) clearTimeout(pending)
    pending = setTimeout(save, 500)
  }
  window.on('resize', later)
  window.on('move', later)
  window.on('maximize', later)
  window.on('unmaximize', later)
  window.on('close', () => {
    if (pending !== null) clearTimeout(pending)
    save()
  })
}

/** Opens the page (at `route`, when given) in a new window, where the last one was. */
function createWindow(route?: string): BrowserWindow {
  const placement = placeWindow(
    readWindowState(windowStateFile()),
    screen.getAllDisplays().map((d) => d.workArea),
  )
  const window = new BrowserWindow({
    x: placement.x,
    y: placement.y,
    width: placement.width,
    height: placement.height,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: 'Burrow',
    icon: join(__dirname, '../../resources/icon.png'),
    webPreferences: {
      preload: join(__dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  })
  // The window shows our page and nothing else; links open in the user's browser.
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event, url) => {
    if (originOf(url) !== pageOrigin()) event.preventDefault()
  })
  window.webContents.on('will-attach-webview', (event) => event.preventDefault())
  if (placement.maximized) window.maximize()
  keepWindowState(window)
  const hash = route === undefined ? '' : `#${route}`
  void window.loadURL(`${devServerUrl ?? `${SCHEME}://app/index.html`}${hash}`)
  return window
}

/**
 * Brings the window forward and shows `route` there: an open page hears `app:did-request-route`
 * (the renderer turns it into a navigation); a new window opens at the route.
 */
function showRoute(route?: string): void {
  const window = BrowserWindow.getAllWindows()[0]
  if (window === undefined) {
    createWindow(route)
    return
  }
  if (window.isMinimized()) window.restore()
  window.show()
  window.focus()
  if (route !== undefined) core.events.emit('app:did-request-route', { route })
}

/** Sync and a to-do and alert check of every account, as the renderer's "Sync now" does. */
async function syncNow(): Promise<void> {
  const listed = await core.dispatch('accounts:list', [])
  if (!listed.ok) return
  for (const account of listed.result as readonly Account[]) void core.dispatch('sync:start', [account.id])
  void core.dispatch('notify:check', [])
}

function trayLabel(text: string): string {
  // `&` marks an access key in Windows and Linux menus.
  return text.replace(/&/g, '&&')
}

/** The tray menu from the watcher's summary: counts and newest items (core/notify/tray.ts), then the app's own entries. */
async function updateTray(): Promise<void> {
  if (tray === null) return
  const response = await core.dispatch('notify:summary', [])
  const summary = response.ok ? (response.result as NotifySummary) : null
  const model = summary !== null ? trayModel(summary) : { tooltip: 'Burrow', entries: [] }
  showTodoBadge(process.platform, summary?.pendingTodos ?? 0, {
    setBadgeCount: (count) => void app.setBadgeCount(count),
    setOverlayIcon: (bitmap, description) =>
      BrowserWindow.getAllWindows()[0]?.setOverlayIcon(
        bitmap === null
          ? null
          : nativeImage.createFromBitmap(bitmap, { width: BADGE_DOT_SIZE, height: BADGE_DOT_SIZE }),
        description,
      ),
  })
  const items: MenuItemConstructorOptions[] = model.entries.map((e) => {
    if (e.kind === 'separator') return { type: 'separator' }
    if (e.kind === 'note') return { label: trayLabel(e.label), enabled: false }
    return { label: trayLabel(e.label), click: () => showRoute(e.route) }
  })
  if (items.length > 0) items.push({ type: 'separator' })
  items.push(
    { label: 'Show Burrow', click: () => showRoute() },
    { label: 'Sync now', click: () => void syncNow() },
    { type: 'separator' },
    { label: 'Quit', role: 'quit' },
  )
  tray?.setToolTip(model.tooltip)
  tray?.setContextMenu(Menu.buildFromTemplate(items))
}

function createTray(): void {
  tray = new Tray(nativeImage.createFromPath(join(__dirname, '../../resources/tray.png')))
  tray.setToolTip('Burrow')
  void updateTray()
  // A burst of changes (a sync run writing to-dos) rebuilds the menu once.
  let pending: NodeJS.Timeout | null = null
  core.events.subscribe((event, payload) => {
    const relevant =
      event === 'notify:did-change' ||
      event === 'notify:did-announce' ||
      (event === 'cache:did-change' && payload.kinds.includes('todo'))
    if (!relevant || pending !== null) return
    pending = setTimeout(() => {
      pending = null
      void updateTray()
    }, 250)
  })
}

/** A native notification per announcement, when the user has them on (the `notifications` preference). */
function wireNotifications(): void {
  core.events.subscribe((event, payload) => {
    if (
      event !== 'notify:did-announce' ||
      core.preferences?.get().notifications !== true ||
      !Notification.isSupported()
    )
      return
    const notification = new Notification({
      title: payload.title,
      body: payload.body,
      icon: join(__dirname, '../../resources/icon.png'),
    })
    notifications.add(notification)
    notification.on('click', () => showRoute(payload.route))
    notification.on('close', () => notifications.delete(notification))
    notification.show()
  })
}

/** `api:get` through core, as the deep links read the ids of projects and groups. */
const apiGet: ApiGet = async (accountId, path) => {
  const response = await core.dispatch('api:get', [accountId, path])
  if (!response.ok) return null
  const result = response.result as { status: number; body: unknown }
  return { status: result.status, body: result.body }
}

/** Shows a `burrow://open?url=…` link's item, or says why it cannot (another instance, not an item); never adds anything. */
async function openDeepLink(link: string): Promise<void> {
  if (launch === null) {
    pendingLinks.push(link)
    return
  }
  const listed = await core.dispatch('accounts:list', [])
  const accounts = listed.ok ? (listed.result as readonly Account[]) : []
  const result = await resolveDeepLink(link, accounts, apiGet)
  if (result.ok) {
    showRoute(result.route)
    return
  }
  log.write('warn', `deep link refused: ${result.message}`)
  showRoute()
  void dialog.showMessageBox({
    type: 'warning',
    title: 'Burrow',
    message: 'Burrow cannot open this link',
    detail: result.message,
  })
}

/** Copies the diagnostics (versions, platform, account hosts, recent log lines; no secret). */
async function copyDiagnostics(): Promise<void> {
  const response = await core.dispatch('app:diagnostics', [])
  if (response.ok) clipboard.writeText((response.result as { text: string }).text)
}

/** The embedded Burrow Server when this launch has no launcher's server and the app holds the compiled one; null otherwise. */
async function startOwnServer(): Promise<{ baseUrl: string; token: string } | null> {
  const entry = join(app.getAppPath(), 'out', 'server', 'cli.cjs')
  if (!existsSync(entry)) return null
  try {
    embeddedServer = await startEmbeddedServer({
      execPath: process.execPath,
      entry,
      dataDir: folders.server,
      stateFile: launcherStateFileFor(folders.server),
      env: process.env,
      onOutput: (line, stream) => log.write(stream === 'stderr' ? 'warn' : 'info', `[server] ${line}`),
    })
    log.write(
      'info',
      `Burrow Server ${embeddedServer.version} ready at ${embeddedServer.baseUrl} (data in ${folders.server})`,
    )
    return { baseUrl: embeddedServer.baseUrl, token: embeddedServer.rootToken }
  } catch (error) {
    console.error(
      `[burrow] could not start the local Burrow Server: ${error instanceof Error ? error.message : String(error)}`,
    )
    return null
  }
}

function setApplicationMenu(checkForUpdates?: () => void): void {
  const template = applicationMenuTemplate(process.platform, 'Burrow', {
    syncNow: () => void syncNow(),
    copyDiagnostics: () => void copyDiagnostics(),
    openLogFolder: () => void shell.openPath(log.dir),
    checkForUpdates,
  })
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
  app.setAboutPanelOptions(aboutPanelOptions('Burrow', app.getVersion(), process.versions))
}

/** electron-updater when this build names a release feed (core/shell/updates.ts); the menu gets "Check for Updates…" then. */
async function startUpdates(): Promise<(() => void) | undefined> {
  const policy = updatePolicy({
    isPackaged: app.isPackaged,
    platform: process.platform,
    resourcesPath: process.resourcesPath,
    env: process.env,
  })
  if (!policy.enabled) {
    log.write('info', `updates off: ${policy.reason}`)
    return undefined
  }
  const updater: Updater = (await import('electron-updater')).default.autoUpdater
  stopUpdates = wireUpdates({
    updater,
    ask: async (question) =>
      (await dialog.showMessageBox({ type: 'info', ...question, buttons: [...question.buttons] })).response,
    log: (message) => log.write('info', message),
  })
  return () => void updater.checkForUpdates().catch(() => undefined)
}

process.on('uncaughtException', (error) => log.write('error', `uncaught exception: ${error.stack ?? error.message}`))
process.on('unhandledRejection', (reason) =>
  log.write(
    'error',
    `unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
  ),
)
app.on('render-process-gone', (_event, _contents, details) =>
  log.write('error', `renderer gone: ${details.reason} (exit code ${details.exitCode})`),
)
app.on('child-process-gone', (_event, details) =>
  log.write('error', `${details.type} process gone: ${details.reason} (exit code ${details.exitCode})`),
)

app.on('web-contents-created', (_event, contents) => {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
})

// Windows shows toasts only for an app with an AppUserModelID.
if (process.platform === 'win32') app.setAppUserModelId('Burrow')

/** Everything after the single-instance lock: this is the first Burrow running. */
function start(): void {
  // A second launch (a click on a burrow:// link, or the app's icon) hands its arguments here and quits.
  app.on('second-instance', (_event, argv) => {
    const link = deepLinkFromArgv(argv)
    if (link !== null) void openDeepLink(link)
    else if (launch !== null) showRoute()
  })
  // macOS hands links to the running app, before or after it is ready.
  app.on('open-url', (event, url) => {
    event.preventDefault()
    void openDeepLink(url)
  })
  if (app.isPackaged) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME.slice(0, -1))
  const firstLink = deepLinkFromArgv(process.argv)
  if (firstLink !== null) pendingLinks.push(firstLink)

  void app.whenReady().then(async () => {
    const server = localServer ?? (await startOwnServer())
    const launched = await launchCore({
      userDataDir: app.getPath('userData'),
      version: app.getVersion(),
      mode: 'electron',
      localServer: server,
      syncOptions: { schedule: true },
      recentLogLines: (count) => log.recentLines(count),
    })
    if (launched.localAccountError !== null)
      console.error(`[burrow] could not sign in to the local Burrow Server: ${launched.localAccountError}`)
    core = launched.core
    hardenSession()
    wireIpc()
    setApplicationMenu(await startUpdates())
    createWindow()
    createTray()
    wireNotifications()
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow()
    })
    // From here on links open at once; those that came during the start open now.
    launch = launched
    for (const link of pendingLinks.splice(0)) void openDeepLink(link)
  })

  // Core closes and the embedded server stops before the app exits (a server left behind would hold its port and database).
  let shutDown = false
  app.on('will-quit', (event) => {
    if (shutDown) return
    event.preventDefault()
    stopUpdates?.()
    void (async () => {
      await launch?.close()
      await embeddedServer?.stop()
      shutDown = true
      app.quit()
    })()
  })
}

if (app.requestSingleInstanceLock()) start()
else app.quit()

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

app.on('before-quit', () => {
  tray?.destroy()
})
