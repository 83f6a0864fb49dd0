import { nowIso, type Db } from '../../platform/db/connection'

/** A Pages domain; the private key column holds the sealed secret only. */
export interface PagesDomainRow {
  readonly id: number
  readonly project_id: number
  readonly domain: string
  readonly certificate: string | null
  readonly encrypted_key: string | null
  readonly certificate_source: 'user_provided' | 'gitlab_provided'
  readonly auto_ssl_enabled: number
  readonly created_at: string
  readonly updated_at: string
}

/** One page of every domain of the instance (or the one named, whatever its case), by domain. */
export function listAllPagesDomains(
  db: Db,
  domain: string | undefined,
  page: { readonly limit: number; readonly offset: number },
): { rows: PagesDomainRow[]; total: number } {
  const where = domain === undefined ? '1 = 1' : 'domain = ? COLLATE NOCASE'
  const args = domain === undefined ? [] : [domain]
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM pages_domains WHERE ${where}`).get(...args) as { n: number }).n
  const rows = db
    .prepare(`SELECT * FROM pages_domains WHERE ${where} ORDER BY domain, id LIMIT ? OFFSET ?`)
    .all(...args, page.limit, page.offset) as PagesDomainRow[]
  return { rows, total }
}

/** One page of a project's domains, by domain. */
export function listProjectPagesDomains(
  db: Db,
  projectId: number,
  page: { readonly limit: number; readonly offset: number },
): { rows: PagesDomainRow[]; total: number } {
  const total = (
    db.prepare('SELECT COUNT(*) AS n FROM pages_domains WHERE project_id = ?').get(projectId) as { n: number }
  ).n
  const rows = db
    .prepare('SELECT * FROM pages_domains WHERE project_id = ? ORDER BY domain LIMIT ? OFFSET ?')
    .all(projectId, page.limit, page.offset) as PagesDomainRow[]
  return { rows, total }
}

/** The project's domain of this name (case-insensitive). */
export function findProjectPagesDomain(db: Db, projectId: number, domain: string): PagesDomainRow | undefined {
  return db
    .prepare('SELECT * FROM pages_domains WHERE project_id = ? AND domain = ? COLLATE NOCASE')
    .get(projectId, domain) as PagesDomainRow | undefined
}

/** Whether any project of the instance already has this domain (domains are unique instance-wide). */
export function pagesDomainTaken(db: Db, domain: string, exceptId = 0): boolean {
  return (
    db.prepare('SELECT 1 FROM pages_domains WHERE domain = ? COLLATE NOCASE AND id <> ?').get(domain, exceptId) !==
    undefined
  )
}

export interface NewPagesDomain {
  readonly projectId: number
  readonly domain: string
  readonly certificate: string | null
  readonly encryptedKey: string | null
  readonly autoSslEnabled: boolean
}

export function insertPagesDomain(db: Db, d: NewPagesDomain): PagesDomainRow {
  const now = nowIso()
  const info = db
    .prepare(
      'INSERT INTO pages_domains (project_id, domain, certificate, encrypted_key, auto_ssl_enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .run(d.projectId, d.domain, d.certificate, d.encryptedKey, d.autoSslEnabled ? 1 : 0, now, now)
  return db.prepare('SELECT * FROM pages_domains WHERE id = ?').get(Number(info.lastInsertRowid)) as PagesDomainRow
}

export type PagesDomainChanges = Partial<
  Pick<PagesDomainRow, 'certificate' | 'encrypted_key' | 'certificate_source' | 'auto_ssl_enabled'>
>

export function updatePagesDomain(db: Db, id: number, changes: PagesDomainChanges): PagesDomainRow {
  const keys = Object.keys(changes)
  if (keys.length > 0) {
    const sets = [...keys.map((k) => `${k} = @${k}`), 'updated_at = @updated_at']
    db.prepare(`UPDATE pages_domains SET ${sets.join(', ')} WHERE id = @id`).run({
      ...changes,
      updated_at: nowIso(),
      id,
    })
  }
  return db.prepare('SELECT * FROM pages_domains WHERE id = ?').get(id) as PagesDomainRow
}

export function deletePagesDomain(db: Db, id: number): void {
  db.prepare('DELETE FROM pages_domains WHERE id = ?').run(id)
}
