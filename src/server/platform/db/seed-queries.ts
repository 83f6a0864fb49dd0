import { nowIso, type Db } from './connection'

// The seed's own SQL (src/server/seed): its run log (`seed_runs`, a table only the seed writes),
// the content counts it reports, and BulkWriter, the prepared inserts of the synthetic profile.
// They live here rather than in the modules' queries: only the seed runs them, BulkWriter writes
// rows of seven modules' tables in one loader built for 100k-row data sets (one statement per
// table prepared once), and a module's queries file holding a seed-only loader would widen that
// module's public face for the seed alone.

/** A row of `seed_runs`. */
export interface SeedRunRow {
  readonly id: number
  readonly profile: string
  readonly seed: string
  readonly parameters: string
  readonly counts: string
  readonly duration_ms: number | null
  readonly created_at: string
  /** Null while the run is going on, or when it was interrupted. */
  readonly finished_at: string | null
}

/** The first seed run of this instance, if content was ever seeded (or began to be). */
export function firstSeedRun(db: Db): SeedRunRow | undefined {
  return db.prepare('SELECT * FROM seed_runs ORDER BY id LIMIT 1').get() as SeedRunRow | undefined
}

/** Records that a seed run starts; returns its id. */
export function startSeedRun(
  db: Db,
  run: { readonly profile: string; readonly seed: string; readonly parameters: object },
): number {
  const info = db
    .prepare('INSERT INTO seed_runs (profile, seed, parameters, created_at) VALUES (?, ?, ?, ?)')
    .run(run.profile, run.seed, JSON.stringify(run.parameters), nowIso())
  return Number(info.lastInsertRowid)
}

/** Records what a finished seed run wrote. */
export function finishSeedRun(db: Db, id: number, run: { readonly counts: object; readonly durationMs: number }): void {
  db.prepare('UPDATE seed_runs SET counts = ?, duration_ms = ?, finished_at = ? WHERE id = ?').run(
    JSON.stringify(run.counts),
    run.durationMs,
    nowIso(),
    id,
  )
}

const COUNTED = {
  users: "SELECT COUNT(*) FROM users WHERE user_type IS NULL OR user_type = 'human'",
  groups: "SELECT COUNT(*) FROM namespaces WHERE kind = 'group'",
  projects: 'SELECT COUNT(*) FROM projects',
  issues: 'SELECT COUNT(*) FROM issues',
  merge_requests: 'SELECT COUNT(*) FROM merge_requests',
  notes: 'SELECT COUNT(*) FROM notes',
  labels: 'SELECT COUNT(*) FROM labels',
  milestones: 'SELECT COUNT(*) FROM milestones',
  epics: 'SELECT COUNT(*) FROM epics',
  todos: 'SELECT COUNT(*) FROM todos',
  award_emoji: 'SELECT COUNT(*) FROM award_emoji',
  events: 'SELECT COUNT(*) FROM events',
  runners: 'SELECT COUNT(*) FROM ci_runners',
  pipelines: 'SELECT COUNT(*) FROM ci_pipelines',
  jobs: 'SELECT COUNT(*) FROM ci_builds',
  environments: 'SELECT COUNT(*) FROM environments',
  deployments: 'SELECT COUNT(*) FROM deployments',
  alerts: 'SELECT COUNT(*) FROM alert_management_alerts',
  vulnerabilities: 'SELECT COUNT(*) FROM vulnerabilities',
} as const

export type ContentCounts = { readonly [K in keyof typeof COUNTED]: number }

/** How much content the instance holds, by kind. */
export function contentCounts(db: Db): ContentCounts {
  const out: Record<string, number> = {}
  for (const [key, sql] of Object.entries(COUNTED)) out[key] = db.prepare(sql).pluck().get() as number
  return out as ContentCounts
}

/** True when people have created groups or projects here (a seed must not mix into them). */
export function hasUserContent(db: Db): boolean {
  return (
    db
      .prepare("SELECT EXISTS (SELECT 1 FROM projects) OR EXISTS (SELECT 1 FROM namespaces WHERE kind = 'group')")
      .pluck()
      .get() === 1
  )
}

/** An issue row as createIssue (and a later close) leaves it. */
export interface BulkIssue {
  readonly projectId: number
  readonly iid: number
  readonly authorId: number
  readonly title: string
  readonly description: string
  readonly milestoneId: number | null
  readonly weight: number | null
  readonly createdAt: string
  readonly closed: { readonly at: string; readonly byId: number } | null
}

/** A merge request row as createMergeRequest (and a merge or close) leaves it. */
export interface BulkMergeRequest {
  readonly projectId: number
  readonly iid: number
  readonly authorId: number
  readonly title: string
  readonly description: string
  readonly sourceBranch: string
  readonly headSha: string
  readonly baseSha: string
  readonly milestoneId: number | null
  readonly createdAt: string
  readonly state: 'opened' | 'merged' | 'closed'
  readonly endedAt: string | null
  readonly endedById: number | null
}

/**
 * Prepared inserts for large synthetic data sets: the same rows the issue, merge request, note,
 * event and to-do writers produce, without re-preparing a statement per row. Use inside one
 * transaction.
 */
export class BulkWriter {
  private readonly issue
  private readonly mergeRequest
  private readonly note
  private readonly labelLink
  private readonly issueAssignee
  private readonly mrAssignee
  private readonly mrReviewer
  private readonly event
  private readonly todo
  private readonly counter

  constructor(private readonly db: Db) {
    this.issue = db.prepare(
      `INSERT INTO issues (iid, project_id, author_id, title, description, confidential, discussion_locked, issue_type, milestone_id, due_date, weight,
         state, closed_at, closed_by_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 0, NULL, 'issue', ?, NULL, ?, ?, ?, ?, ?, ?)`,
    )
    this.mergeRequest = db.prepare(
      `INSERT INTO merge_requests (iid, project_id, source_project_id, source_branch, target_branch, title, description, author_id, milestone_id,
         should_remove_source_branch, allow_collaboration, squash, approvals_before_merge, head_sha, base_sha, start_sha, merge_status,
         state, merged_by_id, merged_at, closed_by_id, closed_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'main', ?, ?, ?, ?, NULL, 0, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    this.note = db.prepare(
      `INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, type, discussion_id, system, internal, resolvable, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, NULL, ?, 0, 0, 0, ?, ?)`,
    )
    this.labelLink = db.prepare(
      'INSERT OR IGNORE INTO label_links (label_id, target_type, target_id, created_at) VALUES (?, ?, ?, ?)',
    )
    this.issueAssignee = db.prepare('INSERT OR IGNORE INTO issue_assignees (issue_id, user_id) VALUES (?, ?)')
    this.mrAssignee = db.prepare(
      'INSERT OR IGNORE INTO merge_request_assignees (merge_request_id, user_id) VALUES (?, ?)',
    )
    this.mrReviewer = db.prepare(
      'INSERT OR IGNORE INTO merge_request_reviewers (merge_request_id, user_id, created_at) VALUES (?, ?, ?)',
    )
    this.event = db.prepare(
      `INSERT INTO events (project_id, author_id, action, target_type, target_id, target_iid, target_title, note, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    this.todo = db.prepare(
      `INSERT INTO todos (user_id, author_id, project_id, target_type, target_id, action, state, body, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
    )
    this.counter = db.prepare(
      `INSERT INTO internal_ids (scope_type, scope_id, usage, last_value) VALUES ('Project', ?, ?, ?)
       ON CONFLICT (scope_type, scope_id, usage) DO UPDATE SET last_value = MAX(last_value, excluded.last_value)`,
    )
  }

  /** Inserts an issue with its labels, assignees and `created` (and `closed`) events; returns its id. */
  addIssue(i: BulkIssue, labelIds: readonly number[], assigneeIds: readonly number[]): number {
    const updated = i.closed?.at ?? i.createdAt
    const id = Number(
      this.issue.run(
        i.iid,
        i.projectId,
        i.authorId,
        i.title,
        i.description,
        i.milestoneId,
        i.weight,
        i.closed ? 'closed' : 'opened',
        i.closed?.at ?? null,
        i.closed?.byId ?? null,
        i.createdAt,
        updated,
      ).lastInsertRowid,
    )
    for (const l of labelIds) this.labelLink.run(l, 'Issue', id, i.createdAt)
    for (const u of assigneeIds) this.issueAssignee.run(id, u)
    this.event.run(i.projectId, i.authorId, 'created', 'Issue', id, i.iid, i.title, null, i.createdAt)
    if (i.closed) this.event.run(i.projectId, i.closed.byId, 'closed', 'Issue', id, i.iid, i.title, null, i.closed.at)
    return id
  }

  /** Inserts a merge request with its labels, assignees, reviewers and state events; returns its id. */
  addMergeRequest(
    m: BulkMergeRequest,
    labelIds: readonly number[],
    assigneeIds: readonly number[],
    reviewerIds: readonly number[],
  ): number {
    const merged = m.state === 'merged'
    const closed = m.state === 'closed'
    const id = Number(
      this.mergeRequest.run(
        m.iid,
        m.projectId,
        m.projectId,
        m.sourceBranch,
        m.title,
        m.description,
        m.authorId,
        m.milestoneId,
        m.headSha,
        m.baseSha,
        m.baseSha,
        m.state === 'opened' ? 'can_be_merged' : 'unchecked',
        m.state,
        merged ? m.endedById : null,
        merged ? m.endedAt : null,
        closed ? m.endedById : null,
        closed ? m.endedAt : null,
        m.createdAt,
        m.endedAt ?? m.createdAt,
      ).lastInsertRowid,
    )
    for (const l of labelIds) this.labelLink.run(l, 'MergeRequest', id, m.createdAt)
    for (const u of assigneeIds) this.mrAssignee.run(id, u)
    for (const u of reviewerIds) this.mrReviewer.run(id, u, m.createdAt)
    this.event.run(m.projectId, m.authorId, 'created', 'MergeRequest', id, m.iid, m.title, null, m.createdAt)
    if (m.endedAt !== null && m.endedById !== null)
      this.event.run(
        m.projectId,
        m.endedById,
        merged ? 'merged' : 'closed',
        'MergeRequest',
        id,
        m.iid,
        m.title,
        null,
        m.endedAt,
      )
    return id
  }

  /** Inserts a comment and its `commented` event (`eventNote` is the note as the event shows it). */
  addNote(
    n: {
      readonly type: 'Issue' | 'MergeRequest'
      readonly targetId: number
      readonly projectId: number
      readonly authorId: number
      readonly body: string
      readonly discussionId: string
      readonly at: string
      readonly targetTitle: string
    },
    eventNote: (id: number) => Readonly<Record<string, unknown>>,
  ): number {
    const id = Number(
      this.note.run(n.type, n.targetId, n.projectId, n.authorId, n.body, n.discussionId, n.at, n.at).lastInsertRowid,
    )
    this.event.run(
      n.projectId,
      n.authorId,
      'commented',
      'Note',
      id,
      null,
      n.targetTitle,
      JSON.stringify(eventNote(id)),
      n.at,
    )
    return id
  }

  /** A pending to-do. */
  addTodo(t: {
    readonly userId: number
    readonly authorId: number
    readonly projectId: number
    readonly targetType: 'Issue' | 'MergeRequest'
    readonly targetId: number
    readonly action: 'assigned' | 'review_requested'
    readonly body: string
    readonly at: string
  }): void {
    this.todo.run(t.userId, t.authorId, t.projectId, t.targetType, t.targetId, t.action, t.body, t.at, t.at)
  }

  /** Moves the project's iid counter to at least `value`, so the next issue or merge request follows on. */
  raiseIidCounter(projectId: number, usage: 'issues' | 'merge_requests', value: number): void {
    this.counter.run(projectId, usage, value)
  }

  /** Sets the project's last activity to its newest event, as recording each event one by one would. */
  touchProjects(projectIds: readonly number[]): void {
    const update = this.db.prepare(
      'UPDATE projects SET last_activity_at = (SELECT MAX(created_at) FROM events WHERE project_id = @id) WHERE id = @id',
    )
    for (const id of projectIds) update.run({ id })
  }
}
