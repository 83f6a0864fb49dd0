import { describe, expect, it } from 'vitest'
import { reachable, runtimeGraph, runtimeImports, sourceFiles } from './import-graph'

/**
 * What the page's layers load when they run (the renderer and the preload, and the src/shared files
 * they reach): no typebox. The IPC argument schemas and their compiled checks are core's
 * (request-validators.ts, the `*-schema.ts` files); the page takes channel names from contract.ts and
 * values from the family files, whose types are re-exported from the schemas, type-only.
 */
describe('the page loads no typebox', () => {
  it('reaches no file importing typebox from src/renderer or src/preload', () => {
    const graph = runtimeGraph(sourceFiles('src'))
    const page = reachable(graph, [...sourceFiles('src/renderer'), ...sourceFiles('src/preload')])
    const typebox = [...page].filter((file) =>
      runtimeImports(file).some((s) => s === 'typebox' || s.startsWith('typebox/')),
    )
    expect(typebox).toEqual([])
  })

  it('follows runtime imports from file to file', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['d.ts', ['a.ts']],
    ])
    expect([...reachable(graph, ['a.ts'])].sort()).toEqual(['a.ts', 'b.ts', 'c.ts'])
  })
})
