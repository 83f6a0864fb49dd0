import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Account } from '../../src/shared/ipc/contract'
import { electronModule, emitAppEvent, fakeElectron, quitApp, until } from '../helpers/fake-electron'
import { buildServerBundle } from '../helpers/server-build'

/*
 * The packaged app: src/main/index.ts under the fake `electron` module
 * (test/helpers/fake-electron.ts), as an installed Burrow starts — no launcher, the compiled
 * server in the app (out/server/cli.cjs, built here by vite.server.config.ts), its data under
 * the OS's application-data folder. Node stands in for the Electron binary that runs the
 * server with ELECTRON_RUN_AS_NODE=1 (it cannot be downloaded here). electron-updater is a
 * stand-in too: the feed is never fetched.
 */

vi.mock('electron', () => electronModule())

const updater = vi.hoisted(() => {
  const listeners = new Map<string, ((...args: unknown[]) => void)[]>()
  const autoUpdater = {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    checks: 0,
    installs: 0,
    on(event: string, listener: (...args: unknown[]) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener])
      return autoUpdater
    },
    async checkForUpdates() {
      autoUpdater.checks++
      return null
    },
    quitAndInstall() {
      autoUpdater.installs++
    },
  }
  const emit = (event: string, ...args: unknown[]): void => {
    for (const listener of listeners.get(event) ?? []) listener(...args)
  }
  return { autoUpdater, emit }
})
vi.mock('electron-updater', () => ({ default: { autoUpdater: updater.autoUpdater }, autoUpdater: updater.autoUpdater }))

const { state } = fakeElectron
const folder = mkdtempSync(join(tmpdir(), 'burrow-packaged-'))
const dataHome = join(folder, 'data')
const resources = join(folder, 'resources')
let bundle: Awaited<ReturnType<typeof buildServerBundle>>

/** Calls an IPC handler as Electron would, from the app's page. */
async function invoke(
  channel: string,
  ...args: unknown[]
): Promise<{ ok: boolean; result?: unknown; error?: unknown }> {
  const handler = state.ipcHandlers.get(channel)
  if (handler === undefined) throw new Error(`no handler for ${channel}`)
  return (await handler({ senderFrame: { url: 'burrow://app/index.html' } }, ...args)) as {
    ok: boolean
    result?: unknown
  }
}

async function localAccount(): Promise<Account> {
  const listed = await invoke('accounts:list')
  const account = (listed.result as Account[]).find((a) => a.kind === 'local')
  if (account === undefined) throw new Error('no local account')
  return account
}

/** A REST call to the embedded server as the local account (root), through core's api:send. */
async function rest(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await invoke('api:send', (await localAccount()).id, { method, path, body })
  if (!response.ok) throw new Error(`${method} ${path}: ${JSON.stringify(response.error)}`)
  return (response.result as { body: Record<string, unknown> }).body
}

const link = (url: string): string => `burrow://open?url=${encodeURIComponent(url)}`
const routesSent = (): unknown[] =>
  state.windows.flatMap((w) => w.sent.filter((s) => s.channel === 'app:did-request-route').map((s) => s.payload))

beforeAll(async () => {
  bundle = await buildServerBundle()
  state.home = folder
  state.appPath = bundle.appDir
  state.isPackaged = true
  mkdirSync(resources, { recursive: true })
  writeFileSync(join(resources, 'app-update.yml'), 'provider: generic\nurl: https://releases.burrow.test/desktop\n')
  Object.defineProperty(process, 'resourcesPath', { value: resources, configurable: true })
  process.env.XDG_DATA_HOME = dataHome
  for (const name of [
    'BURROW_SERVER_URL',
    'BURROW_LOCAL_SERVER_TOKEN',
    'BURROW_APP_DATA_DIR',
    'ELECTRON_RENDERER_URL',
    'APPIMAGE',
  ])
    delete process.env[name]
  process.env.APPIMAGE = join(folder, 'Burrow.AppImage')
  // Saved by an earlier launch: where the window was.
  mkdirSync(join(dataHome, 'burrow', 'app'), { recursive: true })
  writeFileSync(
    join(dataHome, 'burrow', 'app', 'window-state.json'),
    JSON.stringify({ bounds: { x: 40, y: 30, width: 1000, height: 700 }, maximized: true }),
  )
  // Launched by a click on a link: the first launch's command line carries it.
  process.argv.push(link('https://nowhere.example/group/app/-/issues/1'))
  await import('../../src/main/index')
  state.ready?.()
  await until(() => state.windows.length > 0 && state.trays > 0, 'the window and the tray')
}, 120_000)

afterAll(async () => {
  await quitApp()
  bundle?.remove()
  rmSync(folder, { recursive: true, force: true })
})

describe('the packaged app (fake electron module, Node standing in for Electron)', () => {
  it('runs its own compiled server with ELECTRON_RUN_AS_NODE and signs the local account in to it, data in the application-data folder', async () => {
    const info = (await invoke('app:info')).result as { serverUrl: string; localAccount: boolean }
    expect(info).toMatchObject({ localAccount: true, serverUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) })
    const account = await localAccount()
    expect(account).toMatchObject({ kind: 'local', username: 'root', baseUrl: info.serverUrl })
    expect(existsSync(join(dataHome, 'burrow', 'server'))).toBe(true)
    expect(existsSync(join(dataHome, 'burrow', 'app', 'accounts.json'))).toBe(true)
    expect(state.paths.get('userData')).toBe(join(dataHome, 'burrow', 'app'))
    expect(JSON.parse(readFileSync(join(dataHome, 'burrow', 'launcher.json'), 'utf8'))).toEqual({
      serverPort: Number(new URL(info.serverUrl).port),
    })
    // The server's process is this binary (node here) in Node mode.
    const pid = execFileSync('sh', ['-c', `ps -eo pid,args | grep "${bundle.entry}" | grep -v grep | awk '{print $1}'`])
      .toString()
      .trim()
      .split('\n')[0]
    expect(pid).toMatch(/^\d+$/)
    expect(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).toContain('ELECTRON_RUN_AS_NODE=1')
  })

  it('holds the single-instance lock and registers burrow:// links', () => {
    expect(state.protocolClients).toEqual(['burrow'])
    expect(state.appHandlers.has('second-instance')).toBe(true)
  })

  it('refused the first launch’s link to an instance that is not an account, adding nothing', async () => {
    await until(() => state.dialogs.length > 0, 'the refusal')
    expect(state.dialogs[0]).toMatchObject({
      type: 'warning',
      message: 'Burrow cannot open this link',
      detail: expect.stringContaining('https://nowhere.example is not one of your accounts’ instances'),
    })
    expect(((await invoke('accounts:list')).result as Account[]).map((a) => a.kind)).toEqual(['local'])
    expect(routesSent()).toEqual([])
  })

  it('opens a link handed over by a second launch: the issue, merge request, epic or file of an account', async () => {
    const account = await localAccount()
    const group = await rest('POST', '/groups', { name: 'Deep', path: 'deep' })
    const project = await rest('POST', '/projects', {
      name: 'app',
      path: 'app',
      namespace_id: group.id,
      initialize_with_readme: true,
    })
    const issue = await rest('POST', `/projects/${project.id}/issues`, { title: 'Linked' })
    const web = `${account.baseUrl}/deep/app`
    await emitAppEvent('second-instance', {}, ['/opt/Burrow/burrow', link(`${web}/-/issues/${issue.iid}`)], '/home/u')
    await until(() => routesSent().length === 1, 'the issue route')
    expect(routesSent()).toEqual([{ route: `/a/local/projects/${project.id}/issues/${issue.iid}` }])
    await emitAppEvent('second-instance', {}, ['/opt/Burrow/burrow', link(`${web}/-/blob/main/README.md`)], '/home/u')
    await until(() => routesSent().length === 2, 'the file route')
    expect(routesSent()[1]).toEqual({
      route: `/a/local/projects/${project.id}/repository/blob?ref=main&path=README.md`,
    })
    // macOS hands links over with open-url.
    const epic = await rest('POST', `/groups/${group.id}/epics`, { title: 'Linked epic' })
    const prevented = vi.fn()
    await emitAppEvent(
      'open-url',
      { preventDefault: prevented },
      link(`${account.baseUrl}/groups/deep/-/epics/${epic.iid}`),
    )
    expect(prevented).toHaveBeenCalled()
    await until(() => routesSent().length === 3, 'the epic route')
    expect(routesSent()[2]).toEqual({ route: `/a/local/groups/${group.id}/epics/${epic.iid}` })
    await emitAppEvent(
      'second-instance',
      {},
      ['/opt/Burrow/burrow', link(`${account.baseUrl}/nobody/app/-/issues/1`)],
      '/home/u',
    )
    await until(() => state.dialogs.length === 2, 'the refusal of a project the instance does not have')
    expect(state.dialogs[1]).toMatchObject({ detail: expect.stringContaining('could not be found') })
    expect(routesSent()).toHaveLength(3)
  })

  it('a second launch without a link brings the window forward', async () => {
    const shown = state.windows[0].shown
    await emitAppEvent('second-instance', {}, ['/opt/Burrow/burrow'], '/home/u')
    expect(state.windows[0].shown).toBe(shown + 1)
    expect(state.windows).toHaveLength(1)
  })

  it('opens the window where it was and saves where it goes', async () => {
    expect(state.windows[0].options).toMatchObject({
      x: 40,
      y: 30,
      width: 1000,
      height: 700,
      minWidth: 640,
      minHeight: 480,
    })
    expect(state.windows[0].maximized).toBe(true)
    state.windows[0].bounds = { x: 200, y: 120, width: 900, height: 650 }
    state.windows[0].maximized = false
    fakeElectron.windows[0].emit('close')
    expect(JSON.parse(readFileSync(join(dataHome, 'burrow', 'app', 'window-state.json'), 'utf8'))).toEqual({
      bounds: { x: 200, y: 120, width: 900, height: 650 },
      maximized: false,
    })
  })

  it('sets the menu with the standard roles, About with the versions, and the to-do badge', async () => {
    const menu = state.applicationMenus.at(-1) as {
      label?: string
      submenu?: { label?: string; role?: string; click?: () => void }[]
    }[]
    expect(menu.map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help'])
    const help = menu.at(-1)?.submenu ?? []
    expect(help.map((e) => e.label ?? e.role ?? 'separator')).toEqual([
      'Copy Diagnostics',
      'Open Log Folder',
      'Check for Updates…',
      'separator',
      'about',
    ])
    expect(state.aboutPanel).toMatchObject({
      applicationName: 'Burrow',
      applicationVersion: '0.1.0',
      version: expect.stringContaining(`Node ${process.versions.node}`),
    })
    await until(() => state.badgeCounts.length > 0, 'the badge')
    expect(state.badgeCounts.at(-1)).toBe(0)
  })

  it('copies diagnostics from the menu and the palette: versions, hosts, log lines, no token', async () => {
    const account = await localAccount()
    console.error(`request failed with PRIVATE-TOKEN: glpat-${'x'.repeat(20)}`)
    const help =
      (state.applicationMenus.at(-1) as { submenu?: { label?: string; click?: () => void }[] }[]).at(-1)?.submenu ?? []
    help.find((e) => e.label === 'Copy Diagnostics')?.click?.()
    await until(() => state.clipboard.length > 0, 'the clipboard')
    const text = state.clipboard[0]
    expect(text).toContain('Burrow 0.1.0 (electron)')
    expect(text).toContain(`- ${account.baseUrl} (local Burrow Server)`)
    expect(text).toContain('PRIVATE-TOKEN: [REDACTED]')
    expect(text).not.toContain('glpat-')
    expect(((await invoke('app:diagnostics')).result as { text: string }).text).toContain('Recent log lines')
    help.find((e) => e.label === 'Open Log Folder')?.click?.()
    expect(state.openedPaths).toEqual([join(dataHome, 'burrow', 'logs')])
  })

  it('keeps a log file of the day in the log folder, with the server’s output and no token', () => {
    const logs = join(dataHome, 'burrow', 'logs')
    const files = readdirSync(logs)
    expect(files).toEqual([`burrow-${new Date().toISOString().slice(0, 10)}.log`])
    const text = readFileSync(join(logs, files[0]), 'utf8')
    expect(text).toContain('[server] Burrow Server listening on')
    expect(text).toContain('deep link refused')
    expect(text).not.toMatch(/glpat-x/)
  })

  it('checks the configured feed and asks before restarting into a downloaded update', async () => {
    expect(updater.autoUpdater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true, checks: 1 })
    state.dialogResponse = 1
    updater.emit('update-downloaded', { version: '0.2.0' })
    await until(() => state.dialogs.some((d) => d.title === 'Update ready'), 'the question')
    await new Promise((r) => setTimeout(r, 50))
    expect(updater.autoUpdater.installs).toBe(0)
    state.dialogResponse = 0
    updater.emit('update-downloaded', { version: '0.2.0' })
    await until(() => updater.autoUpdater.installs === 1, 'the restart')
    expect(state.dialogs.filter((d) => d.title === 'Update ready')).toHaveLength(2)
  })
})
