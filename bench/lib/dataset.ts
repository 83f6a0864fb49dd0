import type { Db } from '../../src/server/platform/db/connection'

export interface DatasetSize {
  readonly users: number
  readonly groups: number
  readonly projects: number
  /** Group memberships spread over the groups, so permission queries have rows to walk. */
  readonly memberships: number
}

export interface DatasetCounts extends DatasetSize {
  readonly total_users: number
  readonly total_projects: number
}

const VISIBILITIES = ['public', 'internal', 'private'] as const

function pad(n: number): string {
  return String(n).padStart(5, '0')
}

/** A timestamp `i` minutes after a fixed origin, so every row has a distinct, stable time. */
function stamp(i: number): string {
  return new Date(Date.UTC(2022, 0, 1) + i * 60_000).toISOString()
}

/**
 * Inserts a large synthetic instance straight into the database in one transaction: users with
 * their personal namespaces, groups, projects split between groups and user namespaces with
 * mixed visibility, and group memberships. Returns the row counts afterwards.
 */
export function insertDataset(db: Db, size: DatasetSize): DatasetCounts {
  const insertUser = db.prepare(
    `INSERT INTO users (username, name, email, state, confirmed_at, created_at, updated_at)
     VALUES (?, ?, ?, 'active', ?, ?, ?)`,
  )
  const insertNamespace = db.prepare(
    `INSERT INTO namespaces (kind, name, path, full_path, full_name, owner_id, visibility, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertProject = db.prepare(
    `INSERT INTO projects (namespace_id, name, path, description, visibility, default_branch, creator_id, created_at, updated_at, last_activity_at)
     VALUES (?, ?, ?, ?, ?, 'main', ?, ?, ?, ?)`,
  )
  const insertMember = db.prepare(
    `INSERT OR IGNORE INTO members (source_type, source_id, user_id, access_level, created_at, updated_at)
     VALUES ('Namespace', ?, ?, ?, ?, ?)`,
  )
  db.transaction(() => {
    const userIds: number[] = []
    const userNamespaceIds: number[] = []
    for (let i = 1; i <= size.users; i++) {
      const username = `bench-user-${pad(i)}`
      const name = `Bench User ${pad(i)}`
      const t = stamp(i)
      const id = Number(insertUser.run(username, name, `${username}@bench.example`, t, t, t).lastInsertRowid)
      userIds.push(id)
      userNamespaceIds.push(
        Number(insertNamespace.run('user', name, username, username, name, id, 'public', t, t).lastInsertRowid),
      )
    }
    const groupIds: number[] = []
    for (let i = 1; i <= size.groups; i++) {
      const path = `bench-group-${pad(i)}`
      const t = stamp(i)
      groupIds.push(
        Number(insertNamespace.run('group', path, path, path, path, null, VISIBILITIES[i % 3], t, t).lastInsertRowid),
      )
    }
    for (let i = 1; i <= size.projects; i++) {
      const inGroup = i % 2 === 0 && groupIds.length > 0
      const namespaceId = inGroup ? groupIds[i % groupIds.length] : userNamespaceIds[i % userNamespaceIds.length]
      const creator = userIds[i % userIds.length]
      const path = `bench-project-${pad(i)}`
      const t = stamp(size.users + i)
      insertProject.run(
        namespaceId,
        `Bench Project ${pad(i)}`,
        path,
        `Synthetic project ${i}`,
        VISIBILITIES[i % 3],
        creator,
        t,
        t,
        t,
      )
    }
    for (let i = 0; i < size.memberships && groupIds.length > 0; i++) {
      const t = stamp(i)
      insertMember.run(
        groupIds[i % groupIds.length],
        userIds[(i * 7) % userIds.length],
        [10, 20, 30, 40, 50][i % 5],
        t,
        t,
      )
    }
  })()
  const count = (table: string): number => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n
  return { ...size, total_users: count('users'), total_projects: count('projects') }
}
