import { existsSync } from 'node:fs'
import { join } from 'node:path'

/*
 * Updates through electron-updater, off unless the build named a release feed: electron-builder
 * writes app-update.yml into the app's resources only when the build's configuration has a
 * `publish` entry (BURROW_UPDATE_FEED_URL, electron-builder.config.mjs). electron-updater checks
 * what it downloads as it always does (the sha512 of the feed's latest*.yml; on Windows the
 * installer's signature against the running app's publisher; on macOS Squirrel.Mac checks the
 * code signature), and nothing here turns that off. The user is asked before the app restarts.
 */

export interface UpdateFacts {
  readonly isPackaged: boolean
  readonly platform: NodeJS.Platform
  /** Electron's process.resourcesPath, where app-update.yml is. */
  readonly resourcesPath: string
  readonly env: Readonly<Record<string, string | undefined>>
}

export type UpdatePolicy =
  { readonly enabled: true; readonly feedConfig: string } | { readonly enabled: false; readonly reason: string }

/** Every six hours after the check at launch. */
export const UPDATE_CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000

/** Whether this launch checks for updates, and if not, why. */
export function updatePolicy(facts: UpdateFacts): UpdatePolicy {
  if (!facts.isPackaged) return { enabled: false, reason: 'not a packaged app' }
  if (facts.env.BURROW_DISABLE_UPDATES === '1')
    return { enabled: false, reason: 'turned off by BURROW_DISABLE_UPDATES' }
  const feedConfig = join(facts.resourcesPath, 'app-update.yml')
  if (!existsSync(feedConfig)) return { enabled: false, reason: 'this build names no release feed' }
  // The deb package is updated by the system's package manager; an AppImage updates itself.
  if (facts.platform === 'linux' && !facts.env.APPIMAGE)
    return { enabled: false, reason: 'installed by a package manager, which updates it' }
  return { enabled: true, feedConfig }
}

/** The part of electron-updater's AppUpdater this module drives. */
export interface Updater {
  autoDownload: boolean
  autoInstallOnAppQuit: boolean
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown
  on(event: 'error', listener: (error: Error) => void): unknown
  checkForUpdates(): Promise<unknown>
  quitAndInstall(): void
}

export interface RestartQuestion {
  readonly title: string
  readonly message: string
  readonly detail: string
  readonly buttons: readonly [string, string]
  readonly defaultId: 0
  readonly cancelId: 1
}

/** The question asked once an update is downloaded: button 0 restarts now, 1 leaves it for the next quit. */
export function restartQuestion(version: string): RestartQuestion {
  return {
    title: 'Update ready',
    message: `Burrow ${version} is ready to install.`,
    detail: 'Restart Burrow now to use it, or later: it is installed the next time you quit.',
    buttons: ['Restart now', 'Later'],
    defaultId: 0,
    cancelId: 1,
  }
}

export interface UpdateWiring {
  readonly updater: Updater
  /** Shows the question and resolves with the button chosen. */
  readonly ask: (question: RestartQuestion) => Promise<number>
  readonly log: (message: string) => void
  readonly intervalMs?: number
}

/**
 * Downloads updates in the background, checks at once and then on the interval, and asks
 * before restarting into one (an update not installed now is installed when the app quits).
 * Returns the function that stops the checks.
 */
export function wireUpdates({ updater, ask, log, intervalMs = UPDATE_CHECK_INTERVAL_MS }: UpdateWiring): () => void {
  updater.autoDownload = true
  updater.autoInstallOnAppQuit = true
  let asking = false
  updater.on('update-downloaded', (info) => {
    if (asking) return
    asking = true
    log(`update ${info.version} downloaded`)
    void ask(restartQuestion(info.version))
      .then((button) => {
        if (button === 0) updater.quitAndInstall()
      })
      .finally(() => (asking = false))
  })
  updater.on('error', (error) => log(`update check failed: ${error.message}`))
  const check = (): void => {
    updater
      .checkForUpdates()
      .catch((error: unknown) => log(`update check failed: ${error instanceof Error ? error.message : String(error)}`))
  }
  check()
  const timer = setInterval(check, intervalMs)
  timer.unref?.()
  return () => clearInterval(timer)
}
