import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openCache, SQLITE_BINDING_ENV } from '../../src/main/core/cache/index'
import { sqliteBinding } from '../../src/main/core/cache/database'

/*
 * The cache opens better-sqlite3 with the addon it is told to (scripts/electron-native.mjs gives
 * Electron's main process a build for its ABI). No Electron build can be made here, so the
 * addon handed over is a copy of the system Node's build at another path: loading it from there,
 * and failing on a path with no addon, shows the option and the variable are what is loaded.
 */

const require = createRequire(import.meta.url)
const systemAddon = join(
  dirname(require.resolve('better-sqlite3/package.json')),
  'build',
  'Release',
  'better_sqlite3.node',
)
const dirs: string[] = []
const savedEnv = process.env[SQLITE_BINDING_ENV]

afterEach(() => {
  if (savedEnv === undefined) delete process.env[SQLITE_BINDING_ENV]
  else process.env[SQLITE_BINDING_ENV] = savedEnv
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-binding-'))
  dirs.push(dir)
  return dir
}

/** A copy of the system build where the Electron build would be. */
function copiedAddon(): string {
  const dir = join(tempDir(), 'build', 'Release')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'better_sqlite3.node')
  copyFileSync(systemAddon, file)
  return file
}

describe('the cache’s better-sqlite3 addon', () => {
  it('is loaded from the nativeBinding option’s path', () => {
    const addon = copiedAddon()
    const cache = openCache({ userDataDir: tempDir(), nativeBinding: addon })
    cache.upsert('a', 'issue', [
      {
        id: 1,
        iid: 1,
        project_id: 1,
        title: 'Loaded',
        state: 'opened',
        created_at: '2024-01-01',
        updated_at: '2024-01-01',
      },
    ])
    expect(cache.db.prepare('SELECT title FROM issues').pluck().get()).toBe('Loaded')
    expect(require.cache[addon]).toBeDefined()
    cache.close()
  })

  it('fails to open, naming the file, when the option points at no addon', () => {
    const missing = join(tempDir(), 'nowhere', 'better_sqlite3.node')
    expect(() => openCache({ userDataDir: tempDir(), nativeBinding: missing })).toThrow(/nowhere/)
  })

  it('is taken from BURROW_SQLITE_BINDING when no option is given', () => {
    const missing = join(tempDir(), 'from-env', 'better_sqlite3.node')
    process.env[SQLITE_BINDING_ENV] = missing
    expect(() => openCache({ userDataDir: tempDir() })).toThrow(/from-env/)
    process.env[SQLITE_BINDING_ENV] = copiedAddon()
    openCache({ userDataDir: tempDir() }).close()
  })

  it('is node_modules’ own without option or variable, and the option wins over the variable', () => {
    expect(sqliteBinding({}, {})).toBeUndefined()
    expect(sqliteBinding({}, { [SQLITE_BINDING_ENV]: '' })).toBeUndefined()
    expect(sqliteBinding({}, { [SQLITE_BINDING_ENV]: '/e.node' })).toBe('/e.node')
    expect(sqliteBinding({ nativeBinding: '/o.node' }, { [SQLITE_BINDING_ENV]: '/e.node' })).toBe('/o.node')
  })
})
