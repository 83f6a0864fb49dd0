import { basename, dirname, join } from 'node:path'

/*
 * Where Burrow keeps its data on each OS: one `burrow` folder in the OS's application-data
 * folder, shared by the packaged app and `npm start` (scripts/start.mjs reads the same rules),
 * so the local Burrow Server and the app's accounts and cache are the same whichever started them.
 */

export interface DataFolderFacts {
  readonly platform: NodeJS.Platform
  readonly home: string
  /** The environment: APPDATA on Windows, XDG_DATA_HOME elsewhere. */
  readonly env: Readonly<Record<string, string | undefined>>
}

export interface DataFolders {
  /** `…/burrow`: the folder holding the rest, and the launcher's memory (launcher.json). */
  readonly root: string
  /** Burrow Server's database and repositories. */
  readonly server: string
  /** The app's own data: accounts, the cache, preferences, clones (Electron's userData). */
  readonly app: string
  /** One log file a day (shell/log-file.ts). */
  readonly logs: string
}

/** The OS's application-data folder: Application Support, %APPDATA%, or $XDG_DATA_HOME (~/.local/share). */
function applicationDataFolder({ platform, home, env }: DataFolderFacts): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support')
  if (platform === 'win32') return env.APPDATA || join(home, 'AppData', 'Roaming')
  return env.XDG_DATA_HOME || join(home, '.local', 'share')
}

/** Burrow's folders on this machine. */
export function dataFolders(facts: DataFolderFacts): DataFolders {
  const root = join(applicationDataFolder(facts), 'burrow')
  // macOS keeps logs apart from data, where Console.app shows them.
  const logs = facts.platform === 'darwin' ? join(facts.home, 'Library', 'Logs', 'Burrow') : join(root, 'logs')
  return { root, server: join(root, 'server'), app: join(root, 'app'), logs }
}

/**
 * The app's own data for a server data dir: `app/` beside it when it is the usual
 * `…/burrow/server`, else `<DIR>-app/` beside it, so two data dirs in one folder
 * (`--data-dir /tmp/a`, `--data-dir /tmp/b`) never share accounts and a cache.
 */
export function appDataDirFor(serverDataDir: string): string {
  return basename(serverDataDir) === 'server' ? join(dirname(serverDataDir), 'app') : `${serverDataDir}-app`
}

/** launcher.json (the last launch's server port) for a server data dir: beside a `…/server` dir, else in its `-app` dir. */
export function launcherStateFileFor(serverDataDir: string): string {
  return join(
    basename(serverDataDir) === 'server' ? dirname(serverDataDir) : appDataDirFor(serverDataDir),
    'launcher.json',
  )
}
