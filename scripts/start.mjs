#!/usr/bin/env node
// `npm start`: a local Burrow Server, then the app — in Electron when its binary is there,
// otherwise in browser mode through src/main/web-host.ts (DESIGN.md, "Why this shape").
//
//   npm start [-- --data-dir DIR] [--browser] [--no-open] [--web-port PORT] [--no-seed]
//
// The server seeds demo content (src/server/seed) on the first start of a data dir, before it
// answers; --no-seed starts with an empty instance. Each launch gives the server a new root
// token (the server drops the previous one) and hands it to the app in memory only: the app's
// `local` account signs in with it, so nobody types a token for the local server.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { tsImport } from 'tsx/esm/api'
import { BINDING_ENV, prepareElectronSqlite } from './electron-native.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
// Where Burrow keeps its data, and the port probe and launcher memory, as the packaged app has them.
const { dataFolders, appDataDirFor, launcherStateFileFor } = await tsImport(
  '../src/main/core/shell/data-folders.ts',
  import.meta.url,
)
const { freePort, readLauncherPort, writeLauncherPort } = await tsImport(
  '../src/main/core/shell/local-server.ts',
  import.meta.url,
)
const log = (message) => process.stdout.write(`[burrow] ${message}\n`)

const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    browser: { type: 'boolean', default: false },
    'no-open': { type: 'boolean', default: false },
    'web-port': { type: 'string', default: '0' },
    'no-seed': { type: 'boolean', default: false },
  },
})

/**
 * The Electron binary's path when it has been downloaded, else null. `require('electron')`
 * would try to download it on the spot (and fail offline), so this reads what it would read.
 */
function electronBinary() {
  const pkg = join(root, 'node_modules', 'electron')
  const pathFile = join(pkg, 'path.txt')
  if (!existsSync(pathFile)) return null
  const relative = readFileSync(pathFile, 'utf8').trim()
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(pkg, 'dist')
  const binary = join(dist, relative)
  return existsSync(binary) ? binary : null
}

/** Newest modification time of the files under `paths` (directories walked), 0 if none. */
function newestMtime(paths) {
  let newest = 0
  const visit = (path) => {
    if (!existsSync(path)) return
    const stats = statSync(path)
    if (stats.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry))
    else newest = Math.max(newest, stats.mtimeMs)
  }
  for (const path of paths) visit(path)
  return newest
}

function isStale(output, inputs) {
  return !existsSync(output) || statSync(output).mtimeMs < newestMtime(inputs)
}

function run(command, commandArgs) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' })
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolveRun() : reject(new Error(`${commandArgs.join(' ')} exited with ${code}`)),
    )
  })
}

const children = new Set()
let stopping = false
const cleanups = []

async function stopAll(code) {
  if (stopping) return
  stopping = true
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done()
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
          child.once('exit', () => {
            clearTimeout(timer)
            done()
          })
          child.kill('SIGTERM')
        }),
    ),
  )
  process.exit(code)
}

process.on('SIGINT', () => {
  log('stopping…')
  void stopAll(0)
})
process.on('SIGTERM', () => void stopAll(0))

/**
 * Starts `npm run server` from source, with `--seed demo` unless told not to (the server seeds a
 * new data dir only, and prints what it wrote), and resolves once GET /api/v4/version answers 200.
 */
async function startServer(dataDir, rootToken, seed, preferredPort) {
  const port = await freePort(preferredPort ?? 0)
  const url = `http://127.0.0.1:${port}`
  const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')
  const seedArgs = seed ? ['--seed', 'demo'] : []
  const child = spawn(
    process.execPath,
    [tsx, 'src/server/cli.ts', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir, ...seedArgs],
    {
      cwd: root,
      env: { ...process.env, BURROW_ROOT_TOKEN: rootToken },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  )
  children.add(child)
  let exited = null
  child.once('exit', (code, signal) => {
    exited = signal ?? code
    if (!stopping) {
      // Ctrl-C in a terminal reaches the whole process group: the server may see it first.
      const interrupted = signal === 'SIGINT' || signal === 'SIGTERM'
      if (!interrupted) log(`Burrow Server exited (${exited}); stopping.`)
      void stopAll(interrupted ? 0 : 1)
    }
  })
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`Burrow Server exited before it was ready (${exited})`)
    try {
      const response = await fetch(`${url}/api/v4/version`, { signal: AbortSignal.timeout(2_000) })
      if (response.status === 200) return { url, version: (await response.json()).version }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`Burrow Server did not answer ${url}/api/v4/version within 120 s`)
}

/** Opens `url` in the desktop's browser when there is one; failing to is not an error. */
function openInBrowser(url) {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
  if (
    process.platform === 'linux' &&
    !(process.env.PATH ?? '').split(delimiter).some((dir) => existsSync(join(dir, opener)))
  )
    return
  try {
    const child = spawn(opener, [url], { stdio: 'ignore', detached: true })
    child.on('error', () => undefined)
    child.unref()
  } catch {
    // no browser to open: the address is printed above
  }
}

async function main() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const dataDir = resolve(
    args['data-dir'] ?? dataFolders({ platform: process.platform, home: homedir(), env: process.env }).server,
  )
  // This launch's root token: the server replaces the previous launch's with it, and the app
  // gets it in memory (never a file, a log line or the renderer).
  const rootToken = randomBytes(24).toString('hex')
  const appDir = appDataDirFor(dataDir)
  const launcherFile = launcherStateFileFor(dataDir)

  const seed = !args['no-seed']
  log(`starting Burrow Server (data in ${dataDir}${seed ? '; a new data dir is seeded with demo content first' : ''})`)
  const server = await startServer(dataDir, rootToken, seed, readLauncherPort(launcherFile))
  writeLauncherPort(launcherFile, Number(new URL(server.url).port))
  log(`Burrow Server ${server.version} ready at ${server.url}`)

  let electron = args.browser ? null : electronBinary()
  // Electron's main process needs better-sqlite3 built for its ABI (scripts/electron-native.mjs).
  let sqliteBinding = null
  let electronRefusal = null
  if (electron !== null) {
    const electronVersion = JSON.parse(
      readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'),
    ).version
    const sqlite = await prepareElectronSqlite({ root, electronVersion })
    if (sqlite.error !== undefined) {
      log(sqlite.error)
      electron = null
      electronRefusal = `better-sqlite3 for Electron ${electronVersion} not available`
    } else sqliteBinding = sqlite.binding
  }
  const rendererInputs = [join(root, 'src', 'renderer'), join(root, 'src', 'shared'), join(root, 'package.json')]

  if (electron !== null) {
    const mainInputs = [
      ...rendererInputs,
      join(root, 'src', 'main'),
      join(root, 'src', 'preload'),
      join(root, 'electron.vite.config.ts'),
    ]
    if (
      isStale(join(root, 'out', 'main', 'index.js'), mainInputs) ||
      isStale(join(root, 'out', 'renderer', 'index.html'), mainInputs)
    ) {
      log('building the app (electron-vite)…')
      await run(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'])
    }
    log('launching Electron')
    // src/main/index.ts reads the token and removes it from its environment at once; the app's data goes where browser mode keeps it.
    const app = spawn(electron, [root], {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        BURROW_SERVER_URL: server.url,
        BURROW_LOCAL_SERVER_TOKEN: rootToken,
        BURROW_APP_DATA_DIR: appDir,
        [BINDING_ENV]: sqliteBinding,
      },
    })
    children.add(app)
    app.once('exit', () => void stopAll(0))
    return
  }

  if (
    isStale(join(root, 'out', 'renderer', 'index.html'), [...rendererInputs, join(root, 'vite.renderer.config.ts')])
  ) {
    log('building the renderer (vite)…')
    await run(process.execPath, [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'vite.renderer.config.ts',
      '--logLevel',
      'warn',
    ])
  }
  const { startWebHost } = await tsImport('../src/main/web-host.ts', import.meta.url)
  const { launchCore } = await tsImport('../src/main/core/launch.ts', import.meta.url)
  // The app's own data (account metadata, the cache, preferences) sits beside the server's data dir (appDataDirFor).
  const launch = await launchCore({
    userDataDir: appDir,
    version: pkg.version,
    mode: 'browser',
    localServer: { baseUrl: server.url, token: rootToken },
    syncOptions: { schedule: true },
  })
  cleanups.push(() => launch.close())
  if (launch.localAccount !== null)
    log(`signed in to the local Burrow Server as ${launch.localAccount.username} (account "${launch.localAccount.id}")`)
  else if (launch.localAccountError !== null)
    log(`could not sign in to the local Burrow Server: ${launch.localAccountError}`)
  else
    log(
      'the local Burrow Server account was removed in the app: add it back with Add account, where it is offered first',
    )
  const host = await startWebHost({
    rendererDir: join(root, 'out', 'renderer'),
    core: launch.core,
    port: Number(args['web-port']),
  })
  cleanups.push(() => host.close())
  const reason = args.browser ? 'browser mode requested' : (electronRefusal ?? 'Electron binary not available')
  log(`${reason}: running in browser mode at ${host.pageUrl}`)
  log('press Ctrl-C to stop')
  if (!args['no-open']) openInBrowser(host.pageUrl)
}

main().catch((error) => {
  process.stderr.write(`[burrow] ${error instanceof Error ? error.message : String(error)}\n`)
  void stopAll(1)
})
