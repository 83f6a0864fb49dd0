import { EventEmitter } from 'node:events'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { appDataDirFor, dataFolders, launcherStateFileFor } from '../../src/main/core/shell/data-folders'
import { diagnosticsReport } from '../../src/main/core/shell/diagnostics'
import { aboutPanelOptions, applicationMenuTemplate, type MenuEntry } from '../../src/main/core/shell/menu'
import {
  restartQuestion,
  updatePolicy,
  wireUpdates,
  type RestartQuestion,
  type Updater,
} from '../../src/main/core/shell/updates'
import { DEFAULT_SIZE, placeWindow, readWindowState, writeWindowState } from '../../src/main/core/shell/window-state'

/*
 * The packaged app's decisions, each a plain module under src/main/core/shell that the Electron
 * shell only wires: data folders, window placement, the update policy, the menu and the
 * diagnostics text.
 */

const temp = mkdtempSync(join(tmpdir(), 'burrow-shell-decisions-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))

describe('data folders', () => {
  it('uses the OS’s application-data folder', () => {
    expect(dataFolders({ platform: 'linux', home: '/home/u', env: {} })).toEqual({
      root: '/home/u/.local/share/burrow',
      server: '/home/u/.local/share/burrow/server',
      app: '/home/u/.local/share/burrow/app',
      logs: '/home/u/.local/share/burrow/logs',
    })
    expect(dataFolders({ platform: 'linux', home: '/home/u', env: { XDG_DATA_HOME: '/data' } }).server).toBe(
      '/data/burrow/server',
    )
    expect(dataFolders({ platform: 'darwin', home: '/Users/u', env: {} })).toMatchObject({
      server: '/Users/u/Library/Application Support/burrow/server',
      logs: '/Users/u/Library/Logs/Burrow',
    })
    expect(dataFolders({ platform: 'win32', home: '/c/u', env: { APPDATA: '/c/u/AppData/Roaming' } }).app).toBe(
      join('/c/u/AppData/Roaming', 'burrow', 'app'),
    )
  })

  it('keeps the app’s data and the launcher’s memory beside a server data dir, apart for any other name', () => {
    expect(appDataDirFor('/x/burrow/server')).toBe('/x/burrow/app')
    expect(appDataDirFor('/tmp/a')).toBe('/tmp/a-app')
    expect(launcherStateFileFor('/x/burrow/server')).toBe('/x/burrow/launcher.json')
    expect(launcherStateFileFor('/tmp/a')).toBe('/tmp/a-app/launcher.json')
  })
})

describe('window state', () => {
  const screen = { x: 0, y: 0, width: 1920, height: 1050 }

  it('opens at the default size, centred, the first time', () => {
    expect(placeWindow(null, [screen])).toEqual({ ...DEFAULT_SIZE, maximized: false })
  })

  it('reopens where it was, maximized or not, after a round trip through the file', () => {
    const file = join(temp, 'window-state.json')
    writeWindowState(file, { bounds: { x: 100, y: 50, width: 1000, height: 700 }, maximized: true })
    expect(placeWindow(readWindowState(file), [screen])).toEqual({
      x: 100,
      y: 50,
      width: 1000,
      height: 700,
      maximized: true,
    })
  })

  it('drops a position no display shows any more and fits the size to the displays', () => {
    const saved = { bounds: { x: 2500, y: 100, width: 3000, height: 2000 }, maximized: false }
    expect(placeWindow(saved, [screen])).toEqual({ width: 1920, height: 1050, maximized: false })
    expect(
      placeWindow({ ...saved, bounds: { ...saved.bounds, x: 2500 } }, [
        screen,
        { x: 1920, y: 0, width: 2560, height: 1400 },
      ]),
    ).toMatchObject({ x: 2500, y: 100 })
    expect(
      placeWindow({ bounds: { x: 10, y: 10, width: 100, height: 100 }, maximized: false }, [screen]),
    ).toMatchObject({ width: 640, height: 480 })
  })

  it('ignores a file that is not a window state', () => {
    const file = join(temp, 'broken.json')
    for (const text of [
      '{',
      '{"bounds":{"x":1},"maximized":false}',
      '{"bounds":{"x":1,"y":2,"width":3,"height":4},"maximized":"yes"}',
      '{"bounds":{"x":1e999,"y":2,"width":3,"height":4},"maximized":false}',
      'null',
    ]) {
      writeFileSync(file, text)
      expect(readWindowState(file), text).toBeNull()
    }
    expect(readWindowState(join(temp, 'missing.json'))).toBeNull()
  })
})

describe('update policy', () => {
  const withFeed = join(temp, 'resources-with-feed')
  const withoutFeed = join(temp, 'resources-without-feed')
  const base = { isPackaged: true, platform: 'win32' as NodeJS.Platform, resourcesPath: withFeed, env: {} }

  it('is off unless a packaged build names a feed, and for the deb package', () => {
    mkdirSync(withFeed, { recursive: true })
    mkdirSync(withoutFeed, { recursive: true })
    writeFileSync(join(withFeed, 'app-update.yml'), 'provider: generic\nurl: https://releases.burrow.test/desktop\n')
    expect(updatePolicy(base)).toEqual({ enabled: true, feedConfig: join(withFeed, 'app-update.yml') })
    expect(updatePolicy({ ...base, isPackaged: false })).toEqual({ enabled: false, reason: 'not a packaged app' })
    expect(updatePolicy({ ...base, resourcesPath: withoutFeed })).toEqual({
      enabled: false,
      reason: 'this build names no release feed',
    })
    expect(updatePolicy({ ...base, env: { BURROW_DISABLE_UPDATES: '1' } })).toMatchObject({ enabled: false })
    expect(updatePolicy({ ...base, platform: 'linux' })).toMatchObject({
      enabled: false,
      reason: expect.stringContaining('package manager'),
    })
    expect(updatePolicy({ ...base, platform: 'linux', env: { APPIMAGE: '/home/u/Burrow.AppImage' } })).toMatchObject({
      enabled: true,
    })
  })

  class FakeUpdater extends EventEmitter implements Updater {
    autoDownload = false
    autoInstallOnAppQuit = false
    checks = 0
    installed = 0
    async checkForUpdates(): Promise<unknown> {
      this.checks++
      return null
    }
    quitAndInstall(): void {
      this.installed++
    }
  }

  async function downloaded(answer: number): Promise<{ updater: FakeUpdater; asked: RestartQuestion[] }> {
    const updater = new FakeUpdater()
    const asked: RestartQuestion[] = []
    const stop = wireUpdates({ updater, ask: async (q) => (asked.push(q), answer), log: () => undefined })
    updater.emit('update-downloaded', { version: '0.2.0' })
    await new Promise((r) => setTimeout(r, 0))
    stop()
    return { updater, asked }
  }

  it('downloads in the background, checks at once, and restarts only when the user says so', async () => {
    const now = await downloaded(0)
    expect(now.updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true, checks: 1, installed: 1 })
    expect(now.asked).toEqual([restartQuestion('0.2.0')])
    expect(now.asked[0]).toMatchObject({
      message: 'Burrow 0.2.0 is ready to install.',
      buttons: ['Restart now', 'Later'],
      cancelId: 1,
    })
    const later = await downloaded(1)
    expect(later.updater.installed).toBe(0)
  })

  it('logs a failed check without throwing', async () => {
    const updater = new FakeUpdater()
    updater.checkForUpdates = async () => {
      throw new Error('feed unreachable')
    }
    const lines: string[] = []
    const stop = wireUpdates({ updater, ask: async () => 1, log: (line) => lines.push(line) })
    updater.emit('error', new Error('sha512 checksum mismatch'))
    await new Promise((r) => setTimeout(r, 0))
    stop()
    expect(lines).toEqual(['update check failed: sha512 checksum mismatch', 'update check failed: feed unreachable'])
  })
})

describe('application menu', () => {
  const calls: string[] = []
  const actions = {
    syncNow: () => calls.push('sync'),
    copyDiagnostics: () => calls.push('diagnostics'),
    openLogFolder: () => calls.push('logs'),
  }
  const roles = (entries: readonly MenuEntry[]): string[] =>
    entries.flatMap((e) => [...(e.role ? [e.role] : []), ...roles(e.submenu ?? [])])
  const labels = (entries: readonly MenuEntry[]): string[] =>
    entries.flatMap((e) => [...(e.label ? [e.label] : []), ...labels(e.submenu ?? [])])

  it('has the macOS app menu with the standard roles', () => {
    const menu = applicationMenuTemplate('darwin', 'Burrow', {
      ...actions,
      checkForUpdates: () => calls.push('updates'),
    })
    expect(menu.map((m) => m.label)).toEqual(['Burrow', 'File', 'Edit', 'View', 'Window', 'Help'])
    expect(roles(menu.slice(0, 1))).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit'])
    expect(roles(menu)).toEqual(
      expect.arrayContaining([
        'undo',
        'redo',
        'cut',
        'copy',
        'paste',
        'pasteAndMatchStyle',
        'selectAll',
        'minimize',
        'zoom',
        'front',
        'togglefullscreen',
        'close',
      ]),
    )
    expect(labels(menu)).toContain('Check for Updates…')
  })

  it('has File › Quit and Help › About on Windows and Linux, and no update entry when updates are off', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const menu = applicationMenuTemplate(platform, 'Burrow', actions)
      expect(menu.map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help'])
      expect(roles(menu.slice(0, 1))).toEqual(['quit'])
      expect(roles(menu.slice(-1))).toEqual(['help', 'about'])
      expect(roles(menu)).not.toContain('services')
      expect(labels(menu)).not.toContain('Check for Updates…')
    }
  })

  it('runs Burrow’s own commands', () => {
    calls.length = 0
    const entries = applicationMenuTemplate('linux', 'Burrow', actions).flatMap((m) => m.submenu ?? [])
    for (const label of ['Sync Now', 'Copy Diagnostics', 'Open Log Folder'])
      entries.find((e) => e.label === label)?.click?.()
    expect(calls).toEqual(['sync', 'diagnostics', 'logs'])
  })

  it('shows the versions in the About panel', () => {
    expect(
      aboutPanelOptions('Burrow', '0.1.0', { electron: '45.4.1', chrome: '142.0', node: '22.20.0', v8: '14.2' }),
    ).toEqual({
      applicationName: 'Burrow',
      applicationVersion: '0.1.0',
      version: 'Electron 45.4.1 · Chromium 142.0 · Node 22.20.0 · V8 14.2',
      copyright: 'Copyright © Burrow contributors',
    })
  })
})

describe('diagnostics', () => {
  it('lists versions, platform, the accounts’ hosts and the log lines, without a secret', () => {
    const text = diagnosticsReport({
      appVersion: '0.1.0',
      mode: 'electron',
      versions: { electron: '45.4.1', node: '22.20.0' },
      platform: 'linux',
      arch: 'x64',
      osRelease: '6.1.0',
      accounts: [
        { baseUrl: 'https://gitlab.example.com/', kind: undefined },
        { baseUrl: 'http://127.0.0.1:3000', kind: 'local' },
      ],
      logLines: ['2026-03-04T08:00:00.000Z ERROR GET /user?private_token=abc failed'],
    })
    expect(text).toBe(
      [
        'Burrow 0.1.0 (electron)',
        'Runtime: electron 45.4.1, node 22.20.0',
        'Platform: linux x64 6.1.0',
        '',
        'Accounts (2):',
        '- https://gitlab.example.com',
        '- http://127.0.0.1:3000 (local Burrow Server)',
        '',
        'Recent log lines (1):',
        '2026-03-04T08:00:00.000Z ERROR GET /user?private_token=[REDACTED] failed',
      ].join('\n'),
    )
  })
})
