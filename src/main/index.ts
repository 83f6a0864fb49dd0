import { join } from 'node:path'
import { app, BrowserWindow, ipcMain, Menu, nativeImage, Notification, protocol, session, shell, Tray, type MenuItemConstructorOptions } from 'electron'
import { REQUEST_CHANNELS, type Account, type EventChannel, type IpcEvents } from '../shared/ipc/contract'
import type { NotifySummary } from '../shared/ipc/notify'
import { contentSecurityPolicy } from './core/csp'
import type { Core } from './core/index'
import { launchCore } from './core/launch'
import { trayModel } from './core/notify/index'
import { readStaticFile } from './core/static-files'

/*
 * The Electron shell, kept thin on purpose: windows, tray, security settings and the IPC
 * wiring. Everything the app does lives in ./core, which runs (and is tested) without Electron.
 * scripts/start.mjs passes the local Burrow Server's URL in BURROW_SERVER_URL and this launch's
 * root token in BURROW_LOCAL_SERVER_TOKEN (core's `local` account signs in with it).
 */

/** The launcher's server, read once; the token leaves the environment so no child process inherits it. */
const localServer = ((): { baseUrl: string; token: string } | null => {
  const baseUrl = process.env.BURROW_SERVER_URL
  const token = process.env.BURROW_LOCAL_SERVER_TOKEN
  delete process.env.BURROW_LOCAL_SERVER_TOKEN
  return baseUrl && token ? { baseUrl, token } : null
})()

const SCHEME = 'burrow'
const rendererDir = join(__dirname, '../renderer')
const devServerUrl = process.env.ELECTRON_RENDERER_URL
const csp = contentSecurityPolicy(devServerUrl ? [devServerUrl.replace(/^http/, 'ws')] : [])

protocol.registerSchemesAsPrivileged([{ scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }])

// Created once the app is ready: the accounts service reads the user data dir.
let core: Core
let tray: Tray | null = null
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
    return new Response(new Uint8Array(file.body), { headers: { 'Content-Type': file.contentType, 'Content-Security-Policy': csp } })
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

/** Opens the page (at `route`, when given) in a new window. */
function createWindow(route?: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
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
  const model = response.ok ? trayModel(response.result as NotifySummary) : { tooltip: 'Burrow', entries: [] }
  const items: MenuItemConstructorOptions[] = model.entries.map((e) => {
    if (e.kind === 'separator') return { type: 'separator' }
    if (e.kind === 'note') return { label: trayLabel(e.label), enabled: false }
    return { label: trayLabel(e.label), click: () => showRoute(e.route) }
  })
  if (items.length > 0) items.push({ type: 'separator' })
  items.push({ label: 'Show Burrow', click: () => showRoute() }, { label: 'Sync now', click: () => void syncNow() }, { type: 'separator' }, { label: 'Quit', role: 'quit' })
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
    const relevant = event === 'notify:did-change' || event === 'notify:did-announce' || (event === 'cache:did-change' && payload.kinds.includes('todo'))
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
    if (event !== 'notify:did-announce' || core.preferences?.get().notifications !== true || !Notification.isSupported()) return
    const notification = new Notification({ title: payload.title, body: payload.body, icon: join(__dirname, '../../resources/icon.png') })
    notifications.add(notification)
    notification.on('click', () => showRoute(payload.route))
    notification.on('close', () => notifications.delete(notification))
    notification.show()
  })
}

app.on('web-contents-created', (_event, contents) => {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
})

// Windows shows toasts only for an app with an AppUserModelID.
if (process.platform === 'win32') app.setAppUserModelId('Burrow')

void app.whenReady().then(async () => {
  const launch = await launchCore({ userDataDir: app.getPath('userData'), version: app.getVersion(), mode: 'electron', localServer, syncOptions: { schedule: true } })
  if (launch.localAccountError !== null) console.error(`[burrow] could not sign in to the local Burrow Server: ${launch.localAccountError}`)
  core = launch.core
  app.on('will-quit', () => void launch.close())
  hardenSession()
  wireIpc()
  createWindow()
  createTray()
  wireNotifications()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow()
  })
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

app.on('before-quit', () => {
  tray?.destroy()
})

