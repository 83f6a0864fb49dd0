// better-sqlite3 for Electron's main process.
//
// node_modules/better-sqlite3 is compiled for the system Node (the Burrow Server child process
// and the tests need that build). Electron's main process has another ABI (Electron 45: 150,
// Node 20: 115), so loading that build there fails at launch. When `npm start` launches Electron
// it prepares a second copy of the addon for Electron's ABI under
// node_modules/.burrow-electron/ and hands its path to the app in BURROW_SQLITE_BINDING; the
// core opens the cache with better-sqlite3's `nativeBinding` option set to it
// (src/main/core/cache/database.ts). Packaged builds do the same at build time (docs/packaging.md).
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

/** The environment variable the core reads the addon's path from. */
export const BINDING_ENV = 'BURROW_SQLITE_BINDING'

/** Where the Electron build of better-sqlite3 lives for one Electron version, platform and arch. */
export function electronBindingDir(root, { electronVersion, platform, arch }) {
  return join(
    root,
    'node_modules',
    '.burrow-electron',
    `better-sqlite3-electron-${electronVersion}-${platform}-${arch}`,
  )
}

/**
 * What `npm start` has to do before launching Electron, decided from facts alone (tested in
 * test/scripts/electron-native.test.ts):
 * - `{action: 'none'}` in browser mode (the web host runs core in this Node: the system build fits);
 * - `{action: 'use', binding}` when a build for this Electron, platform, arch and better-sqlite3
 *   version is already there (its stamp says so);
 * - `{action: 'prepare', dir, binding}` otherwise (first launch, or Electron or better-sqlite3
 *   changed since the build was made).
 */
export function electronSqlitePlan({ mode, dir, stamp, electronVersion, betterSqlite3Version, platform, arch }) {
  if (mode !== 'electron') return { action: 'none' }
  const binding = join(dir, 'build', 'Release', 'better_sqlite3.node')
  const current =
    stamp !== null &&
    stamp.electron === electronVersion &&
    stamp.betterSqlite3 === betterSqlite3Version &&
    stamp.platform === platform &&
    stamp.arch === arch &&
    stamp.ok === true
  return current ? { action: 'use', binding } : { action: 'prepare', dir, binding }
}

/** The message `npm start` prints when no Electron build could be had, with what to run by hand. */
export function electronSqliteFailure({ electronVersion, abi, dir, reason }) {
  return [
    `better-sqlite3 for Electron ${electronVersion} (ABI ${abi ?? 'unknown'}) could not be prepared: ${reason}`,
    "The desktop cache needs it in Electron's main process. To get it, with network access to the prebuilt binaries or a C++ toolchain:",
    `  (cd ${dir} && npx prebuild-install --runtime electron --target ${electronVersion})`,
    `  or build it from source against Electron ${electronVersion}'s headers (what @electron/rebuild does) into ${join(dir, 'build', 'Release')}`,
    'Starting in browser mode instead.',
  ].join('\n')
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

function run(command, args, cwd) {
  return new Promise((resolveRun) => {
    let output = ''
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.once('error', (error) => resolveRun({ code: -1, output: String(error) }))
    child.once('exit', (code) => resolveRun({ code, output }))
  })
}

/**
 * Makes sure an Electron build of better-sqlite3 is there (prebuild-install, which better-sqlite3
 * itself installs with, fetches the release's prebuilt addon for `--runtime electron`); resolves
 * to `{binding}` or `{error}` with the message to print. Never throws.
 */
export async function prepareElectronSqlite({
  root,
  electronVersion,
  platform = process.platform,
  arch = process.arch,
  mode = 'electron',
}) {
  const requireFromRoot = createRequire(join(root, 'package.json'))
  const sqliteDir = join(root, 'node_modules', 'better-sqlite3')
  const betterSqlite3Version = readJson(join(sqliteDir, 'package.json'))?.version ?? null
  const dir = electronBindingDir(root, { electronVersion, platform, arch })
  const stampFile = join(dir, 'burrow-stamp.json')
  const plan = electronSqlitePlan({
    mode,
    dir,
    stamp: existsSync(stampFile) ? readJson(stampFile) : null,
    electronVersion,
    betterSqlite3Version,
    platform,
    arch,
  })
  if (plan.action === 'none') return { binding: null }
  if (plan.action === 'use' && existsSync(plan.binding)) return { binding: plan.binding }
  let abi = null
  try {
    abi = requireFromRoot('node-abi').getAbi(electronVersion, 'electron')
  } catch {
    // an Electron newer than node-abi knows: prebuild-install will say so
  }
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  // prebuild-install reads the package's name, version and binary host from its package.json.
  cpSync(join(sqliteDir, 'package.json'), join(dir, 'package.json'))
  let prebuildInstall
  try {
    prebuildInstall = requireFromRoot.resolve('prebuild-install/bin.js')
  } catch {
    return { error: electronSqliteFailure({ electronVersion, abi, dir, reason: 'prebuild-install is not installed' }) }
  }
  const result = await run(
    process.execPath,
    [prebuildInstall, '--runtime', 'electron', '--target', electronVersion, '--platform', platform, '--arch', arch],
    dir,
  )
  if (result.code !== 0 || !existsSync(plan.binding)) {
    const reason =
      result.output
        .trim()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .slice(-2)
        .join(' ') || `prebuild-install exited with ${result.code}`
    return { error: electronSqliteFailure({ electronVersion, abi, dir, reason }) }
  }
  writeFileSync(
    stampFile,
    `${JSON.stringify({ electron: electronVersion, betterSqlite3: betterSqlite3Version, platform, arch, abi, ok: true })}\n`,
  )
  return { binding: plan.binding }
}
