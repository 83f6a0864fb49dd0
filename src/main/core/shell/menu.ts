/*
 * The application menu as data: the platform's standard menus (their roles bring the standard
 * shortcuts and, on macOS, the app menu's Services, Hide and Quit) and Burrow's own commands.
 * The shell hands the template to Electron's Menu.buildFromTemplate.
 */

/** Electron's menu roles used here (the strings Electron's MenuItemConstructorOptions take). */
export type MenuRole =
  | 'about'
  | 'services'
  | 'hide'
  | 'hideOthers'
  | 'unhide'
  | 'quit'
  | 'close'
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'pasteAndMatchStyle'
  | 'delete'
  | 'selectAll'
  | 'reload'
  | 'forceReload'
  | 'toggleDevTools'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen'
  | 'minimize'
  | 'zoom'
  | 'front'
  | 'window'
  | 'help'

export interface MenuEntry {
  readonly label?: string
  readonly role?: MenuRole
  readonly type?: 'separator'
  readonly accelerator?: string
  readonly submenu?: MenuEntry[]
  readonly click?: () => void
}

export interface MenuActions {
  readonly syncNow: () => void
  readonly copyDiagnostics: () => void
  readonly openLogFolder: () => void
  /** Absent when updates are off for this launch (shell/updates.ts). */
  readonly checkForUpdates?: () => void
}

const separator: MenuEntry = { type: 'separator' }

function editMenu(platform: NodeJS.Platform): MenuEntry {
  const mac = platform === 'darwin'
  return {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' as const }] : []),
      { role: 'delete' },
      separator,
      { role: 'selectAll' },
    ],
  }
}

function viewMenu(): MenuEntry {
  return {
    label: 'View',
    submenu: [
      { role: 'reload' },
      { role: 'forceReload' },
      { role: 'toggleDevTools' },
      separator,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  }
}

function windowMenu(platform: NodeJS.Platform): MenuEntry {
  const submenu: MenuEntry[] =
    platform === 'darwin'
      ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }]
  return { label: 'Window', role: 'window', submenu }
}

function helpMenu(platform: NodeJS.Platform, actions: MenuActions): MenuEntry {
  const submenu: MenuEntry[] = [
    { label: 'Copy Diagnostics', click: actions.copyDiagnostics },
    { label: 'Open Log Folder', click: actions.openLogFolder },
  ]
  if (platform !== 'darwin') {
    // macOS has About and the update check in the app menu.
    if (actions.checkForUpdates) submenu.push({ label: 'Check for Updates…', click: actions.checkForUpdates })
    submenu.push(separator, { role: 'about' })
  }
  return { label: 'Help', role: 'help', submenu }
}

/** The menu bar for `platform`. */
export function applicationMenuTemplate(platform: NodeJS.Platform, appName: string, actions: MenuActions): MenuEntry[] {
  const file: MenuEntry = {
    label: 'File',
    submenu: [
      { label: 'Sync Now', accelerator: 'CmdOrCtrl+Shift+S', click: actions.syncNow },
      separator,
      platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
    ],
  }
  const menus = [file, editMenu(platform), viewMenu(), windowMenu(platform), helpMenu(platform, actions)]
  if (platform !== 'darwin') return menus
  const appMenu: MenuEntry = {
    label: appName,
    submenu: [
      { role: 'about' },
      ...(actions.checkForUpdates ? [{ label: 'Check for Updates…', click: actions.checkForUpdates }] : []),
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  }
  return [appMenu, ...menus]
}

/** The About panel's text: Burrow's version, then the runtimes it runs on. */
export function aboutPanelOptions(
  appName: string,
  version: string,
  versions: Readonly<Record<string, string | undefined>>,
): { applicationName: string; applicationVersion: string; version: string; copyright: string } {
  const runtimes = [
    `Electron ${versions.electron ?? '?'}`,
    `Chromium ${versions.chrome ?? '?'}`,
    `Node ${versions.node ?? '?'}`,
    `V8 ${versions.v8 ?? '?'}`,
  ].join(' · ')
  return {
    applicationName: appName,
    applicationVersion: version,
    version: runtimes,
    copyright: 'Copyright © Burrow contributors',
  }
}
