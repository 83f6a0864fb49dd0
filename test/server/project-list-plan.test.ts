import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listProjects, type ProjectListFilter } from '../../src/server/modules/projects/queries'
import { seedGroup, seedProject } from '../helpers/fixtures'
import { makeServer, type TestServer } from '../helpers/server'

// The SQL of a project list page, as SQLite plans it: later pages must be driven by the page's
// ids (a regression once let the planner scan every project and probe the page instead).
describe('project list query plans', () => {
  let s: TestServer
  const admin: ProjectListFilter = { userId: 1, isAdmin: true, external: false, orderBy: 'created_at', sort: 'desc' }

  beforeAll(async () => {
    s = await makeServer()
    const group = seedGroup(s, { visibility: 'public' })
    for (let i = 0; i < 30; i++) seedProject(s, { namespaceId: group.id, visibility: 'public' })
  })
  afterAll(async () => {
    await s.close()
  })

  /** Runs one list call and returns the plan of the page query it prepared. */
  function planOf(filter: ProjectListFilter, limit: number, offset: number): string[] {
    const db = s.app.burrow.db
    const prepared: string[] = []
    const original = db.prepare.bind(db)
    db.prepare = ((sql: string) => {
      prepared.push(sql)
      return original(sql)
    }) as typeof db.prepare
    try {
      listProjects(db, filter, limit, offset)
    } finally {
      db.prepare = original
    }
    const page = prepared.find((sql) => sql.includes('LIMIT @limit'))
    if (!page) throw new Error(`no page query prepared (it may have been cached): ${prepared.join('\n')}`)
    return (db.prepare(`EXPLAIN QUERY PLAN ${page}`).all({ limit, offset }) as { detail: string }[]).map(
      (r) => r.detail,
    )
  }

  it('drives a later page from its ids: the page is scanned, projects and namespaces looked up by key', () => {
    const plan = planOf({ ...admin, sort: 'asc' }, 7, 14)
    const scanPage = plan.findIndex((d) => d.startsWith('SCAN page'))
    const lookup = plan.findIndex((d) => /^SEARCH p USING INTEGER PRIMARY KEY/.test(d))
    expect(scanPage).toBeGreaterThanOrEqual(0)
    expect(lookup).toBeGreaterThan(scanPage)
    expect(plan.some((d) => /^SCAN p USING INDEX/.test(d))).toBe(false)
  })

  it('returns the same rows for a later page as the first-page form would', () => {
    const all = listProjects(s.app.burrow.db, { ...admin, orderBy: 'id', sort: 'asc' }, 30, 0).rows.map((p) => p.id)
    const later = listProjects(s.app.burrow.db, { ...admin, orderBy: 'id', sort: 'asc' }, 10, 10).rows.map((p) => p.id)
    expect(later).toEqual(all.slice(10, 20))
  })
})
