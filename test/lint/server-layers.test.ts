import { describe, expect, it } from 'vitest'
import { serverModulesLinter, serverViolations } from './server-layers'

// burrow/server-modules (scripts/eslint/layer-imports.js): the layers inside src/server (issue 8).
const linter = serverModulesLinter()

async function findings(filePath: string, code: string): Promise<string[]> {
  const [result] = await linter.lintText(code, { filePath })
  return (result?.messages ?? []).map((m) => m.message)
}

describe('server layers (burrow/server-modules)', () => {
  it('refuses an import from platform/ into a module', async () => {
    const errors = await findings(
      'src/server/platform/http/probe.ts',
      "export { findIssueById } from '../../modules/issues'\n",
    )
    expect(errors).toEqual([expect.stringMatching(/^platform\/ imports nothing from modules\//)])
  })

  it("refuses a module reaching into another module's files, and accepts its index", async () => {
    const file = 'src/server/modules/clusters/probe.ts'
    expect(await findings(file, "export { findIssueById } from '../issues/queries'\n")).toEqual([
      expect.stringMatching(/reaches into src\/server\/modules\/issues\/queries \(import from '\.\.\/issues'\)/),
    ])
    expect(await findings(file, "export { findIssueById } from '../issues'\n")).toEqual([])
    expect(await findings(file, "export { findIssueById } from '../issues/index'\n")).toEqual([])
    expect(await findings(file, "export { clusterOf } from './service'\n")).toEqual([])
  })

  it('lets modules/index.ts, the composition root, register every route plugin', async () => {
    expect(await findings('src/server/modules/index.ts', "export { default } from './issues/routes'\n")).toEqual([])
  })

  it('refuses FastifyRequest outside route plugins, platform/http and the Caller', async () => {
    const code = "import type { FastifyRequest } from 'fastify'\nexport type R = FastifyRequest\n"
    expect(await findings('src/server/modules/clusters/service.ts', code)).toEqual([
      expect.stringMatching(/^Only route plugins/),
    ])
    expect(await findings('src/server/platform/auth/probe.ts', code)).toHaveLength(1)
    for (const allowed of [
      'src/server/modules/clusters/routes.ts',
      'src/server/modules/tokens/oauth-routes.ts',
      'src/server/platform/http/probe.ts',
      'src/server/platform/caller.ts',
    ])
      expect(await findings(allowed, code), allowed).toEqual([])
  })

  it('refuses SQL outside queries files and platform/db, and tells a RegExp exec from a database', async () => {
    const sql = "export const f = (db: Db) => db.prepare('SELECT 1').get()\n"
    expect(await findings('src/server/modules/clusters/service.ts', sql)).toEqual([
      expect.stringMatching(/^SQL runs only in queries files/),
    ])
    expect(
      await findings('src/server/modules/clusters/service.ts', "export const g = (c: C) => c.db.exec('VACUUM')\n"),
    ).toHaveLength(1)
    expect(
      await findings(
        'src/server/modules/clusters/service.ts',
        "export const h = (db: Db) => cachedStatement(db, 'x')\n",
      ),
    ).toHaveLength(1)
    expect(await findings('src/server/modules/clusters/queries.ts', sql)).toEqual([])
    expect(await findings('src/server/modules/tokens/oauth-queries.ts', sql)).toEqual([])
    expect(await findings('src/server/platform/db/probe.ts', sql)).toEqual([])
    expect(await findings('src/server/modules/clusters/service.ts', 'export const m = /a/.exec("a")\n')).toEqual([])
  })

  it('finds nothing in src/server: every module is reshaped, and no finding is allowed back', async () => {
    expect(
      await serverViolations(linter),
      'layer findings: import the other module through its index.ts, take a Caller, move SQL into queries.ts',
    ).toEqual([])
  }, 120_000)
})
