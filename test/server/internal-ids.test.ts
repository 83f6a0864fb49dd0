import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { migrate } from '../../src/server/platform/db/connection'
import { nextIid } from '../../src/server/platform/db/internal-ids'

describe('nextIid', () => {
  const db = new Database(':memory:')
  migrate(db)

  it('counts per scope and usage from 1', () => {
    expect([
      nextIid(db, { projectId: 1 }, 'issues'),
      nextIid(db, { projectId: 1 }, 'issues'),
      nextIid(db, { projectId: 2 }, 'issues'),
    ]).toEqual([1, 2, 1])
    expect(nextIid(db, { projectId: 1 }, 'merge_requests')).toBe(1)
    expect(nextIid(db, { groupId: 1 }, 'epics')).toBe(1)
  })

  it('stays above a floor of iids used outside the counter', () => {
    expect(nextIid(db, { projectId: 3 }, 'milestones', 7)).toBe(8)
    expect(nextIid(db, { projectId: 3 }, 'milestones', 20)).toBe(21)
    expect(nextIid(db, { projectId: 3 }, 'milestones', 2)).toBe(22)
  })
})
