import type { Cache } from '../cache/cache'

/** A row of `repo_clones` (migration 160): a repository the user chose to clone. */
export interface CloneRow {
  readonly accountId: string
  readonly projectId: number
  readonly pathWithNamespace: string
  readonly name: string
  readonly webUrl: string | null
  readonly defaultBranch: string | null
  readonly state: 'cloning' | 'ready' | 'failed'
  readonly addedAt: string
  readonly clonedAt: string | null
  readonly fetchedAt: string | null
  readonly lastError: string | null
  readonly sizeBytes: number | null
}

interface SqlRow {
  readonly account_id: string
  readonly project_id: number
  readonly path_with_namespace: string
  readonly name: string
  readonly web_url: string | null
  readonly default_branch: string | null
  readonly state: CloneRow['state']
  readonly added_at: string
  readonly cloned_at: string | null
  readonly fetched_at: string | null
  readonly last_error: string | null
  readonly size_bytes: number | null
}

const SELECT = `SELECT a.account_id, r.project_id, r.path_with_namespace, r.name, r.web_url, r.default_branch, r.state, r.added_at, r.cloned_at, r.fetched_at, r.last_error, r.size_bytes
  FROM repo_clones r JOIN cache_accounts a ON a.acct = r.acct`

function fromSql(row: SqlRow): CloneRow {
  return {
    accountId: row.account_id,
    projectId: row.project_id,
    pathWithNamespace: row.path_with_namespace,
    name: row.name,
    webUrl: row.web_url,
    defaultBranch: row.default_branch,
    state: row.state,
    addedAt: row.added_at,
    clonedAt: row.cloned_at,
    fetchedAt: row.fetched_at,
    lastError: row.last_error,
    sizeBytes: row.size_bytes,
  }
}

/** The clone records in the cache database. */
export class CloneStore {
  constructor(private readonly cache: Cache) {}

  list(accountId?: string): CloneRow[] {
    const rows =
      accountId === undefined
        ? (this.cache.db.prepare(`${SELECT} ORDER BY a.account_id, r.path_with_namespace`).all() as SqlRow[])
        : (this.cache.db
            .prepare(`${SELECT} WHERE a.account_id = ? ORDER BY r.path_with_namespace`)
            .all(accountId) as SqlRow[])
    return rows.map(fromSql)
  }

  get(accountId: string, projectId: number): CloneRow | null {
    const row = this.cache.db
      .prepare(`${SELECT} WHERE a.account_id = ? AND r.project_id = ?`)
      .get(accountId, projectId) as SqlRow | undefined
    return row === undefined ? null : fromSql(row)
  }

  /** Writes the whole row (insert or replace). */
  put(row: CloneRow): void {
    this.cache.db
      .prepare(
        `INSERT INTO repo_clones (acct, project_id, path_with_namespace, name, web_url, default_branch, state, added_at, cloned_at, fetched_at, last_error, size_bytes)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (acct, project_id) DO UPDATE SET path_with_namespace = excluded.path_with_namespace, name = excluded.name, web_url = excluded.web_url,
           default_branch = excluded.default_branch, state = excluded.state, added_at = excluded.added_at, cloned_at = excluded.cloned_at,
           fetched_at = excluded.fetched_at, last_error = excluded.last_error, size_bytes = excluded.size_bytes`,
      )
      .run(
        this.cache.acct(row.accountId),
        row.projectId,
        row.pathWithNamespace,
        row.name,
        row.webUrl,
        row.defaultBranch,
        row.state,
        row.addedAt,
        row.clonedAt,
        row.fetchedAt,
        row.lastError,
        row.sizeBytes,
      )
  }

  delete(accountId: string, projectId: number): void {
    this.cache.db
      .prepare(
        'DELETE FROM repo_clones WHERE project_id = ? AND acct = (SELECT acct FROM cache_accounts WHERE account_id = ?)',
      )
      .run(projectId, accountId)
  }

  /** Clones a previous launch left half done: they failed. */
  failInterrupted(): void {
    this.cache.db
      .prepare(
        "UPDATE repo_clones SET state = 'failed', last_error = 'The clone was interrupted when Burrow closed; clone again.' WHERE state = 'cloning'",
      )
      .run()
  }
}
