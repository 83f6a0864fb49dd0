import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  electronBindingDir,
  electronSqliteFailure,
  electronSqlitePlan,
  prepareElectronSqlite,
} from '../../scripts/electron-native.mjs'

/*
 * What `npm start` decides before launching Electron about better-sqlite3's addon
 * (scripts/electron-native.mjs). The Electron binary and the prebuilt Electron addon cannot be
 * downloaded here, so the download itself is not exercised: the decisions are, as data, and the
 * launch with a build already in place.
 */

const facts = {
  dir: '/app/node_modules/.burrow-electron/x',
  electronVersion: '45.4.1',
  betterSqlite3Version: '12.11.1',
  platform: 'linux',
  arch: 'x64',
}
const stamp = { electron: '45.4.1', betterSqlite3: '12.11.1', platform: 'linux', arch: 'x64', ok: true }

describe('electronSqlitePlan', () => {
  it('does nothing in browser mode, where core runs in the system Node', () => {
    expect(electronSqlitePlan({ ...facts, mode: 'browser', stamp: null })).toEqual({ action: 'none' })
  })

  it('uses a build made for this Electron, platform, arch and better-sqlite3', () => {
    expect(electronSqlitePlan({ ...facts, mode: 'electron', stamp })).toEqual({
      action: 'use',
      binding: join(facts.dir, 'build', 'Release', 'better_sqlite3.node'),
    })
  })

  it('prepares one on the first launch', () => {
    expect(electronSqlitePlan({ ...facts, mode: 'electron', stamp: null })).toMatchObject({
      action: 'prepare',
      dir: facts.dir,
    })
  })

  it('prepares again once Electron or better-sqlite3 changed, or the last attempt failed', () => {
    expect(electronSqlitePlan({ ...facts, mode: 'electron', stamp: { ...stamp, electron: '44.0.0' } }).action).toBe(
      'prepare',
    )
    expect(
      electronSqlitePlan({ ...facts, mode: 'electron', stamp: { ...stamp, betterSqlite3: '12.4.1' } }).action,
    ).toBe('prepare')
    expect(electronSqlitePlan({ ...facts, mode: 'electron', stamp: { ...stamp, ok: false } }).action).toBe('prepare')
  })

  it('keeps builds for different targets apart', () => {
    expect(electronBindingDir('/app', { electronVersion: '45.4.1', platform: 'linux', arch: 'x64' })).not.toBe(
      electronBindingDir('/app', { electronVersion: '45.4.1', platform: 'linux', arch: 'arm64' }),
    )
  })
})

describe('electronSqliteFailure', () => {
  it('says what failed, how to get the build by hand, and that the app starts in browser mode', () => {
    const message = electronSqliteFailure({
      electronVersion: '45.4.1',
      abi: '150',
      dir: '/app/x',
      reason: 'getaddrinfo ENOTFOUND',
    })
    expect(message).toContain('Electron 45.4.1 (ABI 150)')
    expect(message).toContain('getaddrinfo ENOTFOUND')
    expect(message).toContain('prebuild-install --runtime electron --target 45.4.1')
    expect(message).toContain('browser mode')
  })
})

describe('prepareElectronSqlite', () => {
  const roots: string[] = []
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
  })

  /** A project root whose node_modules holds better-sqlite3's package.json (all the plan reads). */
  function fakeRoot(): string {
    const root = mkdtempSync(join(tmpdir(), 'burrow-native-'))
    roots.push(root)
    mkdirSync(join(root, 'node_modules', 'better-sqlite3'), { recursive: true })
    writeFileSync(join(root, 'package.json'), '{"name":"fixture"}\n')
    writeFileSync(
      join(root, 'node_modules', 'better-sqlite3', 'package.json'),
      JSON.stringify({ name: 'better-sqlite3', version: '12.11.1' }),
    )
    return root
  }

  it('answers no binding in browser mode and writes nothing', async () => {
    const root = fakeRoot()
    expect(await prepareElectronSqlite({ root, electronVersion: '45.4.1', mode: 'browser' })).toEqual({ binding: null })
    expect(() => readFileSync(join(root, 'node_modules', '.burrow-electron'))).toThrow()
  })

  it('hands over a build already prepared for this target without fetching anything', async () => {
    const root = fakeRoot()
    const dir = electronBindingDir(root, { electronVersion: '45.4.1', platform: 'linux', arch: 'x64' })
    mkdirSync(join(dir, 'build', 'Release'), { recursive: true })
    writeFileSync(join(dir, 'build', 'Release', 'better_sqlite3.node'), 'addon')
    writeFileSync(join(dir, 'burrow-stamp.json'), JSON.stringify(stamp))
    expect(await prepareElectronSqlite({ root, electronVersion: '45.4.1', platform: 'linux', arch: 'x64' })).toEqual({
      binding: join(dir, 'build', 'Release', 'better_sqlite3.node'),
    })
  })

  it('reports, rather than throws, when no build can be had (no prebuild-install in this root)', async () => {
    const root = fakeRoot()
    const result = await prepareElectronSqlite({ root, electronVersion: '45.4.1', platform: 'linux', arch: 'x64' })
    expect(result.binding).toBeUndefined()
    expect(result.error).toMatch(/could not be prepared: prebuild-install is not installed[\s\S]*browser mode/)
  })
})
