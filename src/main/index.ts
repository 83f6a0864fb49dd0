import { join } from 'node:path'
import { app, BrowserWindow, ipcMain, Menu, nativeImage, protocol, session, shell, Tray } from 'electron'
import { REQUEST_CHANNELS, type EventChannel, type IpcEvents } from '../shared/ipc/contract'
import { contentSecurityPolicy } from './core/csp'
import { openAccounts } from './core/accounts/index'
import { openCache } from './core/cache/index'
import { createCore, type Core } from './core/index'
import { Outbox } from './core/outbox/index'
import { readStaticFile } from './core/static-files'

/*
 * The Electron shell, kept thin on purpose: windows, tray, security settings and the IPC
 * wiring. Everything the app does lives in ./core, which runs (and is tested) without Electron.
 * scripts/start.mjs passes the local Burrow Server's URL in BURROW_SERVER_URL.
 */

const SCHEME = 'burrow'
const rendererDir = join(__dirname, '../renderer')
const devServerUrl = process.env.ELECTRON_RENDERER_URL
const csp = contentSecurityPolicy(devServerUrl ? [devServerUrl.replace(/^http/, 'ws')] : [])

protocol.registerSchemesAsPrivileged([{ scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }])

// Created once the app is ready: the accounts service reads the user data dir.
let core: Core
let tray: Tray | null = null

function pageOrigin(): string {
  return devServerUrl ? new URL(devServerUrl).origin : `${SCHEME}://app`
}

/** Only our own page may call the contract: not an iframe, not a page we navigated away to. */
function trustedSender(frameUrl: string | undefined): boolean {
  if (frameUrl === undefined) return false
  try {
    return new URL(frameUrl).origin === pageOrigin()
  } catch {
    return false
  }
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

function createWindow(): BrowserWindow {
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
    if (new URL(url).origin !== pageOrigin()) event.preventDefault()
  })
  window.webContents.on('will-attach-webview', (event) => event.preventDefault())
  void window.loadURL(devServerUrl ?? `${SCHEME}://app/index.html`)
  return window
}

function createTray(): void {
  const icon = nativeImage.createFromPath(join(__dirname, '../../resources/tray.png'))
  tray = new Tray(icon)
  tray.setToolTip('Burrow')
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Show Burrow', click: () => (BrowserWindow.getAllWindows()[0] ?? createWindow()).show() },
      { type: 'separator' },
      { label: 'Quit', role: 'quit' },
    ]),
  )
}

app.on('web-contents-created', (_event, contents) => {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
})

void app.whenReady().then(async () => {
  const accounts = await openAccounts({ userDataDir: app.getPath('userData') })
  // One cache database per launch, shared by the cache, sync and the outbox (its table lives there).
  const cache = openCache({ userDataDir: app.getPath('userData') })
  const outbox = new Outbox({ cache, accounts })
  outbox.start()
  app.on('will-quit', () => void outbox.dispose())
  core = createCore({ version: app.getVersion(), mode: 'electron', serverUrl: process.env.BURROW_SERVER_URL ?? null, accounts, outbox, cache, syncOptions: { schedule: true } })
  app.on('will-quit', () => void core.dispose())
  hardenSession()
  wireIpc()
  createWindow()
  createTray()
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

