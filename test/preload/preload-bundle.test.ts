import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { runInNewContext } from 'node:vm'
import { build } from 'electron-vite'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * The preload as `npm run build` makes it (electron.vite.config.ts), run as a sandboxed preload
 * runs: `require` gives electron and nothing else. It takes only channel names from the contract:
 * the argument checks (request-validators.ts, compiled from TypeBox schemas) are core's, and if the
 * contract imported them the preload would require typebox, or carry them (394 kB, against ~4 kB).
 */
describe('the preload bundle', () => {
  const root = resolve(import.meta.dirname, '../..')
  mkdirSync(join(root, '.tmp'), { recursive: true })
  const dir = mkdtempSync(join(root, '.tmp', 'preload-build-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('loads with nothing but electron to require, and exposes the bridge', async () => {
    const outDir = join(dir, 'out')
    // Only the preload of the real config, into a folder of this test's own (the entry named
    // absolutely: the config resolves it from its own folder).
    const config = join(dir, 'preload.config.ts')
    const entry = join(root, 'src/preload/index.ts')
    writeFileSync(
      config,
      [
        `import config from ${JSON.stringify(join(root, 'electron.vite.config.ts'))}`,
        `const build = { ...config.preload.build, outDir: ${JSON.stringify(outDir)} }`,
        `build.lib = { ...build.lib, entry: ${JSON.stringify(entry)} }`,
        `export default { preload: { ...config.preload, build } }`,
      ].join('\n'),
    )
    await build({ configFile: config, root, logLevel: 'warn' })

    const required: string[] = []
    const exposed: Record<string, unknown> = {}
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
      ipcRenderer: { invoke: () => Promise.resolve(), on: () => undefined, removeListener: () => undefined },
    }
    const sandboxRequire = (name: string): unknown => {
      required.push(name)
      if (name === 'electron') return electron
      throw new Error(`a sandboxed preload cannot require ${name}`)
    }
    const bundle = readFileSync(join(outDir, 'index.cjs'), 'utf8')
    const module = { exports: {} }
    runInNewContext(bundle, {
      require: sandboxRequire,
      module,
      exports: module.exports,
      TextEncoder,
      TextDecoder,
      URL,
      console,
    })

    expect(required).toEqual(['electron'])
    expect(Object.keys(exposed)).toEqual(['burrow'])
    expect(bundle.length).toBeLessThan(16_000)
  })
})
