import { mkdtempSync, mkdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build } from 'vite'

/**
 * Burrow Server compiled as `npm run build:server` does (vite.server.config.ts), into a fresh
 * folder under the repository's .tmp/ (so the bundle's `require('fastify')` and the rest find
 * node_modules as the packaged app's do). Returns the app folder (holding out/server/cli.cjs)
 * and the function that removes it.
 */
export async function buildServerBundle(): Promise<{ appDir: string; entry: string; remove: () => void }> {
  const root = resolve(import.meta.dirname, '../..')
  mkdirSync(join(root, '.tmp'), { recursive: true })
  const appDir = mkdtempSync(join(root, '.tmp', 'server-build-'))
  const outDir = join(appDir, 'out', 'server')
  await build({ configFile: join(root, 'vite.server.config.ts'), logLevel: 'warn', build: { outDir } })
  return { appDir, entry: join(outDir, 'cli.cjs'), remove: () => rmSync(appDir, { recursive: true, force: true }) }
}
