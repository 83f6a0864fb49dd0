import { createRequire } from 'node:module'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import config, { builderConfig } from '../../electron-builder.config.mjs'

/*
 * electron-builder.config.mjs against electron-builder's own configuration schema (the
 * validation `electron-builder` runs before it builds), and what the installers must be. The
 * build itself needs the Electron binary and electron-builder's tools, which cannot be
 * downloaded here: it runs in the release workflow (.github/workflows/release.yml).
 */

const root = resolve(import.meta.dirname, '../..')
const require = createRequire(import.meta.url)
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration(config: unknown, logger: unknown): Promise<void>
}
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown }
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  main: string
  scripts: Record<string, string>
}

function validate(candidate: unknown): Promise<void> {
  return validateConfiguration(candidate, new DebugLogger(false))
}

/** The PNG's width and height, read from its IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file)
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

describe('electron-builder configuration', () => {
  it('passes electron-builder’s schema, with and without an update feed', async () => {
    await expect(validate(builderConfig({}))).resolves.toBeUndefined()
    await expect(
      validate(builderConfig({ BURROW_UPDATE_FEED_URL: 'https://releases.burrow.test/desktop' })),
    ).resolves.toBeUndefined()
  })

  it('is refused by the same schema when a key is misspelt (the check can fail)', async () => {
    await expect(validate({ ...config, mac: { ...config.mac, hardenedRuntme: true } })).rejects.toThrow(
      /hardenedRuntme/,
    )
    await expect(validate({ ...config, nsis: { ...config.nsis, perMachine: 'no' } })).rejects.toThrow(/perMachine/)
  })

  it('builds dmg and zip for arm64 and x64 on macOS, hardened and notarized when the environment has credentials', () => {
    expect(config.mac?.target).toEqual([
      { target: 'dmg', arch: ['arm64', 'x64'] },
      { target: 'zip', arch: ['arm64', 'x64'] },
    ])
    expect(config.mac).toMatchObject({
      hardenedRuntime: true,
      notarize: true,
      entitlements: 'resources/entitlements.mac.plist',
    })
    expect(readFileSync(join(root, 'resources/entitlements.mac.plist'), 'utf8')).toContain(
      'com.apple.security.cs.allow-jit',
    )
  })

  it('installs per user with NSIS on Windows, and as AppImage and deb (with git) on Linux', () => {
    expect(config.win?.target).toEqual([{ target: 'nsis', arch: ['x64'] }])
    expect(config.nsis).toMatchObject({ perMachine: false, allowElevation: false })
    expect(config.linux?.target).toEqual(['AppImage', 'deb'])
    expect(config.deb?.depends).toContain('git')
  })

  it('registers burrow:// links, associates no file types and unpacks native addons from the archive', () => {
    expect(config.appId).toBe('dev.burrow.desktop')
    expect(config.protocols).toEqual([{ name: 'Burrow link', schemes: ['burrow'] }])
    expect(config.fileAssociations).toBeUndefined()
    expect(config.asarUnpack).toEqual(['**/*.node'])
    expect(config.npmRebuild).toBe(true)
  })

  it('packs the built app, the compiled server and the icons it loads, which exist', () => {
    const files = config.files as string[]
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'out/main/**', 'out/preload/**', 'out/renderer/**', 'out/server/**']),
    )
    expect(pkg.main.startsWith('out/main/')).toBe(true)
    for (const file of files.filter((f) => f.startsWith('resources/')))
      expect(existsSync(join(root, file)), file).toBe(true)
    // electron-builder makes the macOS icon set from a PNG of at least 512 px.
    expect(pngSize(join(root, String(config.icon)))).toEqual({ width: 1024, height: 1024 })
  })

  it('publishes no update feed unless BURROW_UPDATE_FEED_URL names an https one', () => {
    expect(builderConfig({}).publish).toBeNull()
    expect(builderConfig({ BURROW_UPDATE_FEED_URL: ' ' }).publish).toBeNull()
    expect(builderConfig({ BURROW_UPDATE_FEED_URL: 'https://releases.burrow.test/desktop' }).publish).toEqual([
      { provider: 'generic', url: 'https://releases.burrow.test/desktop', channel: 'latest' },
    ])
    expect(
      builderConfig({ BURROW_UPDATE_FEED_URL: 'https://releases.burrow.test/desktop', BURROW_UPDATE_CHANNEL: 'beta' })
        .publish,
    ).toEqual([expect.objectContaining({ channel: 'beta' })])
    expect(() => builderConfig({ BURROW_UPDATE_FEED_URL: 'http://releases.burrow.test/desktop' })).toThrow(/https/)
  })

  it('`npm run dist` builds the app and the server, then the installers for this platform without publishing', () => {
    expect(pkg.scripts.dist).toBe(
      'electron-vite build && npm run build:server && electron-builder --config electron-builder.config.mjs --publish never',
    )
  })
})

describe('release workflow (.github/workflows/release.yml; it runs on a public CI, not here)', () => {
  const workflow = parse(readFileSync(join(root, '.github/workflows/release.yml'), 'utf8')) as {
    jobs: {
      installers: {
        strategy: { matrix: { include: { os: string; args: string }[] } }
        steps: { run?: string }[]
        env: Record<string, string>
      }
    }
  }
  const job = workflow.jobs.installers

  it('builds the installers with `npm run dist` on macOS (arm64 and x64), Windows and Linux runners', () => {
    expect(job.strategy.matrix.include.map((m) => m.args)).toEqual([
      '--mac --arm64',
      '--mac --x64',
      '--win --x64',
      '--linux --x64',
    ])
    expect(job.strategy.matrix.include.map((m) => m.os)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^macos-/),
        expect.stringMatching(/^windows-/),
        expect.stringMatching(/^ubuntu-/),
      ]),
    )
    expect(job.steps.map((s) => s.run).filter(Boolean)).toEqual(['npm ci', 'npm run dist -- ${{ matrix.args }}'])
  })

  it('takes the feed and the signing and notarization credentials from the repository’s settings', () => {
    expect(Object.keys(job.env)).toEqual(
      expect.arrayContaining([
        'BURROW_UPDATE_FEED_URL',
        'CSC_LINK',
        'APPLE_ID',
        'APPLE_APP_SPECIFIC_PASSWORD',
        'APPLE_TEAM_ID',
        'WIN_CSC_LINK',
      ]),
    )
    for (const value of Object.values(job.env)) expect(value).toMatch(/^\$\{\{ .* \}\}$|^'?false'?$/)
  })
})
