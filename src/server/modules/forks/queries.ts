import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

// Fork networks: which network each project is in and which project it was forked from
// (`fork_networks`, `fork_network_members`; forks_count is kept by the tables' triggers).

/** A project's place in its fork network. */
export interface ForkMemberRow {
  readonly project_id: number
  readonly fork_network_id: number
  /** Null for the network's root, and once the upstream is deleted or unlinked. */
  readonly forked_from_project_id: number | null
}

/** The project's fork network membership, if it is in one. */
export function findForkMember(db: Db, projectId: number): ForkMemberRow | undefined {
  return db
    .prepare(
      'SELECT project_id, fork_network_id, forked_from_project_id FROM fork_network_members WHERE project_id = ?',
    )
    .get(projectId) as ForkMemberRow | undefined
}

/** The network `source` is in, made with `source` as its root when it is in none yet. */
function networkOf(db: Db, sourceId: number): number {
  const member = findForkMember(db, sourceId)
  if (member) return member.fork_network_id
  const now = nowIso()
  const id = Number(
    db.prepare('INSERT INTO fork_networks (root_project_id, created_at) VALUES (?, ?)').run(sourceId, now)
      .lastInsertRowid,
  )
  db.prepare(
    'INSERT INTO fork_network_members (project_id, fork_network_id, forked_from_project_id, created_at) VALUES (?, ?, NULL, ?)',
  ).run(sourceId, id, now)
  return id
}

/**
 * Records `forkId` as a fork of `sourceId`, in the source's network. A fork that was the root of a
 * network of its own brings that whole network along (its forks stay its forks).
 */
export function insertForkLink(db: Db, forkId: number, sourceId: number): void {
  db.transaction(() => {
    const network = networkOf(db, sourceId)
    const own = findForkMember(db, forkId)
    if (own) {
      db.prepare('UPDATE fork_network_members SET fork_network_id = ? WHERE fork_network_id = ?').run(
        network,
        own.fork_network_id,
      )
      db.prepare('DELETE FROM fork_networks WHERE id = ?').run(own.fork_network_id)
      db.prepare('UPDATE fork_network_members SET forked_from_project_id = ? WHERE project_id = ?').run(
        sourceId,
        forkId,
      )
      return
    }
    db.prepare(
      'INSERT INTO fork_network_members (project_id, fork_network_id, forked_from_project_id, created_at) VALUES (?, ?, ?, ?)',
    ).run(forkId, network, sourceId, nowIso())
  })()
}

/**
 * Takes the project out of its fork network (GitLab's UnlinkForkService): its own forks stay in
 * the network without an upstream, and a network it was the root of keeps going without a root.
 */
export function deleteForkMember(db: Db, projectId: number): void {
  db.transaction(() => {
    db.prepare('UPDATE fork_network_members SET forked_from_project_id = NULL WHERE forked_from_project_id = ?').run(
      projectId,
    )
    db.prepare('UPDATE fork_networks SET root_project_id = NULL WHERE root_project_id = ?').run(projectId)
    db.prepare('DELETE FROM fork_network_members WHERE project_id = ?').run(projectId)
  })()
}

/** True when both projects are in the same fork network (a project is in its own). */
export function inSameForkNetwork(db: Db, a: number, b: number): boolean {
  if (a === b) return true
  const row = db
    .prepare(
      `SELECT 1 FROM fork_network_members x JOIN fork_network_members y ON y.fork_network_id = x.fork_network_id
       WHERE x.project_id = ? AND y.project_id = ?`,
    )
    .get(a, b)
  return row !== undefined
}

/** The other projects of the network `projectId` is in (none when it is in none). */
export function networkPeerIds(db: Db, projectId: number): number[] {
  return (
    db
      .prepare(
        `SELECT y.project_id AS id FROM fork_network_members x JOIN fork_network_members y ON y.fork_network_id = x.fork_network_id
         WHERE x.project_id = ? AND y.project_id <> x.project_id ORDER BY y.project_id`,
      )
      .all(projectId) as { id: number }[]
  ).map((r) => r.id)
}
