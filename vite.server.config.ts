import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { resolve } from 'node:path'
import { defineConfig } from 'vite'

const root = import.meta.dirname
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
/** The packaged app ships its production dependencies in node_modules: the bundle requires them from there. */
const shipped = Object.keys(pkg.dependencies)
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)])

function isShippedDependency(id: string): boolean {
  return shipped.some((name) => id === name || id.startsWith(`${name}/`))
}

/**
 * Burrow Server compiled ahead of time for the packaged app (`npm run build:server`):
 * src/server/cli.ts and everything it imports from the repository in one CommonJS file,
 * out/server/cli.cjs, which the app runs with its own Electron binary as Node
 * (`ELECTRON_RUN_AS_NODE=1`, src/main/core/shell/local-server.ts); no tsx at run time.
 * CommonJS because Electron's asar support covers `require` in that mode. Production
 * dependencies (better-sqlite3 with its native addon among them) stay external.
 */
export default defineConfig({
  build: {
    ssr: true,
    outDir: resolve(root, 'out/server'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    reportCompressedSize: false,
    rolldownOptions: {
      input: resolve(root, 'src/server/cli.ts'),
      external: (id) => builtins.has(id) || isShippedDependency(id),
      output: { format: 'cjs', entryFileNames: 'cli.cjs', inlineDynamicImports: true },
    },
  },
  ssr: { noExternal: true },
})
