import { nowIso, type Db } from '../../platform/db/connection'

export type AccessKind = 'push' | 'merge' | 'unprotect'

export interface ProtectedBranchRow {
  readonly id: number
  readonly project_id: number
  readonly name: string
  readonly allow_force_push: number
  readonly code_owner_approval_required: number
  readonly created_at: string
  readonly updated_at: string
}

export interface AccessLevelRow {
  readonly id: number
  readonly protected_branch_id: number
  readonly kind: AccessKind
  readonly access_level: number | null
  readonly user_id: number | null
  readonly group_id: number | null
}

/** One rule of who may push, merge or unprotect: a role, a user or a group. */
export interface AccessGrant {
  readonly access_level?: number | null
  readonly user_id?: number | null
  readonly group_id?: number | null
}

/** A protected branch with its access levels. */
export interface ProtectedBranch extends ProtectedBranchRow {
  readonly access: readonly AccessLevelRow[]
}

function withAccess(db: Db, rows: readonly ProtectedBranchRow[]): ProtectedBranch[] {
  if (rows.length === 0) return []
  const levels = db
    .prepare(
      'SELECT * FROM protected_branch_access_levels WHERE protected_branch_id IN (SELECT value FROM json_each(?)) ORDER BY id',
    )
    .all(JSON.stringify(rows.map((r) => r.id))) as AccessLevelRow[]
  return rows.map((r) => ({ ...r, access: levels.filter((l) => l.protected_branch_id === r.id) }))
}

/** Every protected branch rule of a project, by name, with access levels (one query for all levels). */
export function listProtectedBranches(db: Db, projectId: number): ProtectedBranch[] {
  const rows = db
    .prepare('SELECT * FROM protected_branches WHERE project_id = ? ORDER BY name')
    .all(projectId) as ProtectedBranchRow[]
  return withAccess(db, rows)
}

/** The rule with exactly this name (a branch name or a wildcard), if any. */
export function findProtectedBranch(db: Db, projectId: number, name: string): ProtectedBranch | undefined {
  const row = db.prepare('SELECT * FROM protected_branches WHERE project_id = ? AND name = ?').get(projectId, name) as
    ProtectedBranchRow | undefined
  return row ? withAccess(db, [row])[0] : undefined
}

export interface NewProtectedBranch {
  readonly projectId: number
  readonly name: string
  readonly allowForcePush: boolean
  readonly codeOwnerApprovalRequired: boolean
  readonly access: Readonly<Record<AccessKind, readonly AccessGrant[]>>
}

function insertAccess(db: Db, branchId: number, kind: AccessKind, grants: readonly AccessGrant[]): void {
  const stmt = db.prepare(
    'INSERT INTO protected_branch_access_levels (protected_branch_id, kind, access_level, user_id, group_id) VALUES (?, ?, ?, ?, ?)',
  )
  for (const g of grants) stmt.run(branchId, kind, g.access_level ?? null, g.user_id ?? null, g.group_id ?? null)
}

/** Inserts a rule and its access levels in one transaction. */
export function insertProtectedBranch(db: Db, input: NewProtectedBranch): ProtectedBranch {
  return db.transaction(() => {
    const now = nowIso()
    const result = db
      .prepare(
        'INSERT INTO protected_branches (project_id, name, allow_force_push, code_owner_approval_required, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(input.projectId, input.name, input.allowForcePush ? 1 : 0, input.codeOwnerApprovalRequired ? 1 : 0, now, now)
    const id = Number(result.lastInsertRowid)
    for (const kind of ['push', 'merge', 'unprotect'] as const) insertAccess(db, id, kind, input.access[kind])
    return findProtectedBranch(db, input.projectId, input.name) as ProtectedBranch
  })()
}

export interface ProtectedBranchChanges {
  readonly allowForcePush?: boolean
  readonly codeOwnerApprovalRequired?: boolean
  /** Grants to add per kind. */
  readonly add?: Partial<Record<AccessKind, readonly AccessGrant[]>>
  /** Access level row ids to remove. */
  readonly remove?: readonly number[]
}

/** Applies a PATCH: flags, added grants and removed access-level rows. */
export function updateProtectedBranch(
  db: Db,
  branch: ProtectedBranchRow,
  changes: ProtectedBranchChanges,
): ProtectedBranch {
  return db.transaction(() => {
    const sets: string[] = ['updated_at = ?']
    const values: unknown[] = [nowIso()]
    if (changes.allowForcePush !== undefined) {
      sets.push('allow_force_push = ?')
      values.push(changes.allowForcePush ? 1 : 0)
    }
    if (changes.codeOwnerApprovalRequired !== undefined) {
      sets.push('code_owner_approval_required = ?')
      values.push(changes.codeOwnerApprovalRequired ? 1 : 0)
    }
    db.prepare(`UPDATE protected_branches SET ${sets.join(', ')} WHERE id = ?`).run(...values, branch.id)
    const remove = db.prepare('DELETE FROM protected_branch_access_levels WHERE id = ? AND protected_branch_id = ?')
    for (const id of changes.remove ?? []) remove.run(id, branch.id)
    for (const kind of ['push', 'merge', 'unprotect'] as const)
      insertAccess(db, branch.id, kind, changes.add?.[kind] ?? [])
    return findProtectedBranch(db, branch.project_id, branch.name) as ProtectedBranch
  })()
}

/** Deletes a rule (its access levels cascade). */
export function deleteProtectedBranch(db: Db, id: number): void {
  db.prepare('DELETE FROM protected_branches WHERE id = ?').run(id)
}

/** Names of the users and groups that access grants name, for their descriptions. */
export interface AccessNames {
  readonly users: ReadonlyMap<number, string>
  readonly groups: ReadonlyMap<number, string>
}

/** The names of the users and groups among `grants` (two queries at most, for a whole page of rules). */
export function grantHolderNames(db: Db, grants: readonly Pick<AccessGrant, 'user_id' | 'group_id'>[]): AccessNames {
  const userIds = grants.map((a) => a.user_id).filter((id): id is number => id !== null && id !== undefined)
  const groupIds = grants.map((a) => a.group_id).filter((id): id is number => id !== null && id !== undefined)
  return {
    users: namesByIds(db, 'SELECT id, name FROM users WHERE id IN (SELECT value FROM json_each(?))', userIds),
    groups: namesByIds(db, 'SELECT id, name FROM namespaces WHERE id IN (SELECT value FROM json_each(?))', groupIds),
  }
}

function namesByIds(db: Db, sql: string, ids: readonly number[]): Map<number, string> {
  if (ids.length === 0) return new Map()
  const rows = db.prepare(sql).all(JSON.stringify(ids)) as { id: number; name: string }[]
  return new Map(rows.map((r) => [r.id, r.name]))
}
