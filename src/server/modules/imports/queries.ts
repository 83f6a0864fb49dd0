import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import type { MilestoneRow } from '../milestones'

export type ImportType = 'hosted_git' | 'git_server'
export type ImportStatus = 'scheduled' | 'started' | 'finished' | 'failed'

/** A row of `project_imports`. */
export interface ProjectImportRow {
  readonly project_id: number
  readonly import_type: ImportType
  /** What was imported, as the source names it (`group/project`, `PROJECT/repo`). */
  readonly import_source: string
  /** The source's base URL, never with credentials. */
  readonly import_url: string
  readonly status: ImportStatus
  readonly error: string | null
  readonly correlation_id: string
  /** JSON counts of what was imported. */
  readonly stats: string
  readonly user_id: number | null
  readonly created_at: string
  readonly updated_at: string
}

export interface NewProjectImport {
  readonly projectId: number
  readonly type: ImportType
  readonly source: string
  readonly url: string
  readonly correlationId: string
  readonly userId: number
}

/**
 * Mirrors the import's state into the project's settings JSON (json_set, so other settings are
 * left alone), where the Project entity reads `import_status`, `import_type`, `import_error`.
 */
function mirror(
  db: Db,
  projectId: number,
  row: Pick<ProjectImportRow, 'import_type' | 'status' | 'error' | 'import_url'>,
): void {
  db.prepare(
    `UPDATE projects SET settings = json_set(settings, '$.import_type', ?, '$.import_status', ?, '$.import_error', ?, '$.import_url', ?) WHERE id = ?`,
  ).run(row.import_type, row.status, row.error, row.import_url, projectId)
}

/** Records a new import in state `scheduled`. */
export function insertProjectImport(db: Db, n: NewProjectImport): ProjectImportRow {
  const now = nowIso()
  db.prepare(
    `INSERT INTO project_imports (project_id, import_type, import_source, import_url, status, correlation_id, user_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'scheduled', ?, ?, ?, ?)`,
  ).run(n.projectId, n.type, n.source, n.url, n.correlationId, n.userId, now, now)
  const row = findProjectImport(db, n.projectId) as ProjectImportRow
  mirror(db, n.projectId, row)
  return row
}

/** The import of a project, if it was imported. */
export function findProjectImport(db: Db, projectId: number): ProjectImportRow | undefined {
  return db.prepare('SELECT * FROM project_imports WHERE project_id = ?').get(projectId) as ProjectImportRow | undefined
}

/** Moves an import to `status` (with its error when failing, its counts when finishing). */
export function setProjectImportStatus(
  db: Db,
  projectId: number,
  status: ImportStatus,
  extra: { readonly error?: string; readonly stats?: Readonly<Record<string, number>> } = {},
): void {
  db.prepare(
    'UPDATE project_imports SET status = ?, error = COALESCE(?, error), stats = COALESCE(?, stats), updated_at = ? WHERE project_id = ?',
  ).run(status, extra.error ?? null, extra.stats ? JSON.stringify(extra.stats) : null, nowIso(), projectId)
  const row = findProjectImport(db, projectId)
  if (row) mirror(db, projectId, row)
}

/** Imports that were scheduled or running when the server stopped. */
export function unfinishedProjectImports(db: Db): ProjectImportRow[] {
  return db
    .prepare(`SELECT * FROM project_imports WHERE status IN ('scheduled', 'started') ORDER BY project_id`)
    .all() as ProjectImportRow[]
}

/** Fields of an imported milestone. */
export interface ImportedMilestone {
  readonly projectId: number
  readonly iid: number
  readonly title: string
  readonly description: string | null
  readonly state: 'active' | 'closed'
  readonly dueDate: string | null
  readonly startDate: string | null
  readonly createdAt: string
  readonly updatedAt: string
}

/**
 * Inserts a milestone keeping the source's iid and times (insertMilestone hands out the next iid
 * and the current time). Later milestones still follow on: the counter starts above MAX(iid).
 */
export function insertImportedMilestone(db: Db, m: ImportedMilestone): MilestoneRow {
  const info = db
    .prepare(
      `INSERT INTO milestones (iid, project_id, group_id, title, description, state, due_date, start_date, created_at, updated_at)
       VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(m.iid, m.projectId, m.title, m.description, m.state, m.dueDate, m.startDate, m.createdAt, m.updatedAt)
  return db.prepare('SELECT * FROM milestones WHERE id = ?').get(Number(info.lastInsertRowid)) as MilestoneRow
}

/** Sets an imported issue's state and times as the source had them. */
export function setImportedIssueState(
  db: Db,
  issueId: number,
  state: 'opened' | 'closed',
  closedAt: string | null,
  updatedAt: string,
  closedById: number | null,
): void {
  db.prepare('UPDATE issues SET state = ?, closed_at = ?, closed_by_id = ?, updated_at = ? WHERE id = ?').run(
    state,
    closedAt,
    closedById,
    updatedAt,
    issueId,
  )
}

/** A project milestone's id by exact title. */
export function projectMilestoneIdByTitle(db: Db, projectId: number, title: string): number | undefined {
  return (
    db.prepare('SELECT id FROM milestones WHERE project_id = ? AND title = ?').get(projectId, title) as
      { id: number } | undefined
  )?.id
}

/** A project label's id by title, ignoring case as label uniqueness does. */
export function projectLabelIdByTitle(db: Db, projectId: number, title: string): number | undefined {
  return (
    db.prepare('SELECT id FROM labels WHERE project_id = ? AND title = ? COLLATE NOCASE').get(projectId, title) as
      { id: number } | undefined
  )?.id
}
