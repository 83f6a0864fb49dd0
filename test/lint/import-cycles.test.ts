import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cycles, runtimeGraph, runtimeSpecifiers, sourceFiles } from './import-graph'

/** Writes files into a fresh folder below the working directory's temp and returns their paths. */
function tree(files: Readonly<Record<string, string>>): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-cycles-'))
  const out: Record<string, string> = {}
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text)
    out[name] = relative(process.cwd(), join(dir, name))
  }
  return out
}

describe('runtime import cycles in src/', () => {
  it('counts imports, re-exports and side-effect imports, not type-only or dynamic imports', () => {
    const [file] = Object.values(
      tree({
        'a.ts': [
          "import { b } from './b'",
          "import type { C } from './c'",
          "export type { D } from './d'",
          "export { e } from './e'",
          "import './f'",
          "import { type G } from './g'",
          "export const h = () => import('./h')",
          "import { readFileSync } from 'node:fs'",
        ].join('\n'),
      }),
    )
    expect(runtimeSpecifiers(file)).toEqual(['./b', './e', './f', './g'])
  })

  it('finds a cycle through a re-export, and none when the edge back is type-only', () => {
    const looped = tree({ 'a.ts': "import { b } from './b'\n", 'b.ts': "export { a } from './a'\n" })
    expect(cycles(runtimeGraph(Object.values(looped)))).toEqual([[looped['a.ts'], looped['b.ts']].sort()])
    const typed = tree({ 'a.ts': "import { b } from './b'\n", 'b.ts': "import type { A } from './a'\n" })
    expect(cycles(runtimeGraph(Object.values(typed)))).toEqual([])
  })

  it('has no cycle in src/', () => {
    expect(cycles(runtimeGraph(sourceFiles('src')))).toEqual([])
  }, 120_000)
})
