import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The real eslint.config.js, on snippets placed at virtual paths: the rules themselves under test.
const eslint = new ESLint({ cwd: process.cwd() })

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'burrow/layer-imports')
    .map((m) => `${m.ruleId}: ${m.message}`)
}

describe('import boundaries (STYLE.md §1)', () => {
  it('reports a Node builtin imported from src/shared', async () => {
    const errors = await boundaryErrors(
      'src/shared/api/probe.ts',
      "import { readFileSync } from 'node:fs'\nexport const f = readFileSync\n",
    )
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^no-restricted-imports: .*Node builtins/)
  })

  it('reports a bare Node builtin name (fs) imported from src/shared', async () => {
    expect(await boundaryErrors('src/shared/probe.ts', "import * as fs from 'fs'\nexport const f = fs\n")).toHaveLength(
      1,
    )
  })

  it('reports electron imported from src/shared', async () => {
    expect(
      await boundaryErrors('src/shared/probe.ts', "import { app } from 'electron'\nexport const a = app\n"),
    ).toHaveLength(1)
  })

  it('reports a DOM library (vue) imported from src/shared', async () => {
    expect(
      await boundaryErrors('src/shared/probe.ts', "import { ref } from 'vue'\nexport const r = ref\n"),
    ).toHaveLength(1)
  })

  it("lets src/shared use TypeBox, the wire model's schema language, and still refuses fastify", async () => {
    expect(
      await boundaryErrors(
        'src/shared/api/probe.ts',
        "import { Type } from 'typebox'\nexport const S = Type.String()\n",
      ),
    ).toEqual([])
    expect(
      await boundaryErrors('src/shared/api/probe.ts', "import Fastify from 'fastify'\nexport const f = Fastify\n"),
    ).toHaveLength(1)
  })

  it('reports a relative import from src/shared into src/main', async () => {
    const errors = await boundaryErrors(
      'src/shared/ipc/probe.ts',
      "import { createCore } from '../../main/core/index'\nexport const c = createCore\n",
    )
    expect(errors).toEqual([expect.stringMatching(/^burrow\/layer-imports: .*src\/main\/core\/index/)])
  })

  it('reports a Node builtin imported from src/renderer', async () => {
    expect(
      await boundaryErrors('src/renderer/stores/probe.ts', "import { join } from 'node:path'\nexport const j = join\n"),
    ).toHaveLength(1)
  })

  it('reports electron imported from src/renderer', async () => {
    expect(
      await boundaryErrors(
        'src/renderer/probe.ts',
        "import { ipcRenderer } from 'electron'\nexport const i = ipcRenderer\n",
      ),
    ).toHaveLength(1)
  })

  it('reports a relative import from src/renderer into src/server', async () => {
    const errors = await boundaryErrors(
      'src/renderer/views/probe.ts',
      "import { buildApp } from '../../server/app'\nexport const b = buildApp\n",
    )
    expect(errors).toEqual([expect.stringMatching(/^burrow\/layer-imports: /)])
  })

  it('reports a relative import from src/renderer into src/main, also as a dynamic import', async () => {
    const errors = await boundaryErrors(
      'src/renderer/probe.ts',
      "export const load = () => import('../main/core/handlers')\n",
    )
    expect(errors).toHaveLength(1)
  })

  it('reports electron imported from src/main/core', async () => {
    const errors = await boundaryErrors(
      'src/main/core/probe.ts',
      "import { BrowserWindow } from 'electron'\nexport const w = BrowserWindow\n",
    )
    expect(errors).toEqual([expect.stringMatching(/^no-restricted-imports: .*electron/)])
  })

  it('reports a relative import from src/main/core into src/renderer', async () => {
    expect(
      await boundaryErrors(
        'src/main/core/probe.ts',
        "import { createBridge } from '../../renderer/bridge'\nexport const b = createBridge\n",
      ),
    ).toHaveLength(1)
  })

  it('reports a relative import from src/main/core into the Electron shell (src/main/index.ts)', async () => {
    expect(await boundaryErrors('src/main/core/probe.ts', "import '../index'\n")).toHaveLength(1)
  })

  it('reports electron imported from src/server', async () => {
    expect(
      await boundaryErrors('src/server/probe.ts', "import { app } from 'electron'\nexport const a = app\n"),
    ).toHaveLength(1)
  })

  it('reports a node builtin imported from src/preload', async () => {
    expect(
      await boundaryErrors(
        'src/preload/probe.ts',
        "import { exec } from 'node:child_process'\nexport const e = exec\n",
      ),
    ).toHaveLength(1)
  })

  it('reports the IPC argument checks imported from the preload or the renderer (core runs them)', async () => {
    const code =
      "import { requestValidators } from '../shared/ipc/request-validators'\nexport const v = requestValidators\n"
    const schema = "import { outboxValidators } from '../shared/ipc/outbox-schema'\nexport const v = outboxValidators\n"
    for (const filePath of ['src/preload/probe.ts', 'src/renderer/probe.ts']) {
      for (const source of [code, schema]) {
        const errors = await boundaryErrors(filePath, source)
        expect(errors).toHaveLength(1)
        expect(errors[0]).toMatch(/^no-restricted-imports: .*Argument checks run in core/)
      }
    }
    expect(await boundaryErrors('src/main/core/probe.ts', code.replace('../shared', '../../shared'))).toEqual([])
  })

  it('accepts the allowed directions', async () => {
    expect(
      await boundaryErrors(
        'src/renderer/probe.ts',
        "import { REQUEST_CHANNELS } from '../shared/ipc/contract'\nimport { ref } from 'vue'\nexport const x = [REQUEST_CHANNELS, ref]\n",
      ),
    ).toEqual([])
    expect(
      await boundaryErrors(
        'src/preload/probe.ts',
        "import { contextBridge } from 'electron'\nimport { REQUEST_CHANNELS } from '../shared/ipc/contract'\nexport const x = [contextBridge, REQUEST_CHANNELS]\n",
      ),
    ).toEqual([])
    expect(
      await boundaryErrors(
        'src/main/core/probe.ts',
        "import { readFile } from 'node:fs/promises'\nimport { REQUEST_CHANNELS } from '../../shared/ipc/contract'\nexport const x = [readFile, REQUEST_CHANNELS]\n",
      ),
    ).toEqual([])
    expect(
      await boundaryErrors(
        'test/core/probe.ts',
        "import { app } from 'electron'\nimport { buildApp } from '../../src/server/app'\nexport const x = [app, buildApp]\n",
      ),
    ).toEqual([])
  })

  it('reports `any` outside the allowlist', async () => {
    const [result] = await eslint.lintText('export const x: any = 1\n', { filePath: 'src/shared/probe.ts' })
    expect(result?.messages.map((m) => m.ruleId)).toContain('@typescript-eslint/no-explicit-any')
  })

  it('runs the server layers rule and refuses `as unknown as` in src/server, not elsewhere', async () => {
    const ruleIds = async (filePath: string, code: string) =>
      ((await eslint.lintText(code, { filePath }))[0]?.messages ?? []).map((m) => m.ruleId)
    const cast = 'export const n = (1 as unknown as string).length\n'
    expect(await ruleIds('src/server/modules/clusters/probe.ts', cast)).toEqual(['no-restricted-syntax'])
    expect(await ruleIds('src/server/modules/clusters/probe.ts', 'export const u = 1 as unknown\n')).toEqual([])
    expect(await ruleIds('src/main/core/probe.ts', cast)).toEqual([])
    expect(
      await ruleIds('src/server/modules/clusters/probe.ts', "export { findIssueById } from '../issues/queries'\n"),
    ).toEqual(['burrow/server-modules'])
  })
})
