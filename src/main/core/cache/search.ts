import type { SearchHit, SearchParams, SearchResult, SnippetPart } from '../../../shared/ipc/cache'
import type { Cache } from './cache'

/**
 * The FTS5 query for what a person typed: each word quoted (so `-`, `:` or `"` are text, not
 * operators), all required; the last word, and any ending in `*`, match as prefixes, so
 * results follow the typing. Null when nothing searchable is left.
 */
export function ftsQuery(input: string): string | null {
  const words = input.split(/\s+/).map((w) => w.trim()).filter((w) => w !== '')
  const terms: string[] = []
  words.forEach((raw, i) => {
    const prefix = raw.endsWith('*') || i === words.length - 1
    const word = raw.replace(/\*+$/, '')
    // Only letters and digits become tokens (unicode61); a word of punctuation alone matches nothing.
    if (!/[\p{L}\p{N}]/u.test(word)) return
    terms.push(`"${word.replace(/"/g, '""')}"${prefix ? '*' : ''}`)
  })
  return terms.length === 0 ? null : terms.join(' ')
}

/** The words of a query, lowercased and without diacritics, each with whether it matches as a prefix. */
function queryTerms(input: string): { word: string; prefix: boolean }[] {
  const words = input.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w))
  return words.map((raw, i) => ({ word: fold(raw.replace(/\*+$/, '')), prefix: raw.endsWith('*') || i === words.length - 1 }))
}

function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/** Splits text into pieces, marking the tokens the query terms match (as unicode61 tokenizes: runs of letters and digits). */
function markTerms(text: string, terms: readonly { word: string; prefix: boolean }[]): SnippetPart[] {
  const parts: SnippetPart[] = []
  let last = 0
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const token = fold(m[0])
    if (!terms.some((t) => (t.prefix ? token.startsWith(t.word) : token === t.word))) continue
    if (m.index > last) parts.push({ text: text.slice(last, m.index), match: false })
    parts.push({ text: m[0], match: true })
    last = m.index + m[0].length
  }
  if (last < text.length) parts.push({ text: text.slice(last), match: false })
  return parts
}

/** About 160 characters of `text` around its first match, with the matches marked. */
function excerpt(text: string, terms: readonly { word: string; prefix: boolean }[]): SnippetPart[] {
  const parts = markTerms(text.length > 20_000 ? text.slice(0, 20_000) : text, terms)
  let offset = 0
  let first = -1
  for (const p of parts) {
    if (p.match) {
      first = offset
      break
    }
    offset += p.text.length
  }
  const full = parts.map((p) => p.text).join('')
  const start = Math.max(0, (first < 0 ? 0 : first) - 60)
  const end = Math.min(full.length, start + 160)
  const out: SnippetPart[] = start > 0 ? [{ text: '…', match: false }] : []
  let at = 0
  for (const p of parts) {
    const from = Math.max(at, start)
    const to = Math.min(at + p.text.length, end)
    if (to > from) out.push({ text: p.text.slice(from - at, to - at), match: p.match && from === at && to === at + p.text.length })
    at += p.text.length
  }
  if (end < full.length) out.push({ text: '…', match: false })
  return out
}

const TABLES = { issue: 'issues', merge_request: 'merge_requests', epic: 'epics' } as const

/** Most matching documents ranked by bm25 in one query. */
const RANKED = 10_000

/**
 * Ranked full-text search over titles, descriptions and notes of one account's issues, merge
 * requests and epics. A note's match counts for its item; an item shows once, at its best
 * match (bm25 with titles weighted 10 to 1). With more than 10k matching documents, the newest
 * 10k are ranked and `total` is an estimate (`exact: false`).
 */
export function searchCache(cache: Cache, accountId: string, params: SearchParams): SearchResult {
  const acct = cache.existingAcct(accountId)
  const match = ftsQuery(params.query)
  if (acct === null || match === null) return { hits: [], total: 0, exact: true }
  const kinds = params.kinds ?? ['issue', 'merge_request', 'epic']
  const limit = Math.min(200, Math.max(1, params.limit ?? 50))
  const offset = Math.max(0, params.offset ?? 0)

  // Filters on the item itself (project, group, state) look into each kind's table.
  const needsItem = params.project_id !== undefined || params.group_id !== undefined || params.state !== undefined
  const filterSql = (kind: keyof typeof TABLES): string => {
    const f: string[] = []
    if (params.project_id !== undefined) f.push(kind === 'epic' ? '0' : `i.project_id = ${Number(params.project_id)}`)
    if (params.group_id !== undefined) f.push(kind === 'epic' ? `i.group_id = ${Number(params.group_id)}` : `i.project_id IN (SELECT p.id FROM projects p JOIN groups g ON g.acct = p.acct AND g.id = ${Number(params.group_id)} WHERE p.acct = i.acct AND (p.namespace_full_path = g.full_path OR substr(p.namespace_full_path, 1, length(g.full_path) + 1) = g.full_path || '/'))`)
    if (params.state !== undefined) f.push('i.state = ?')
    return f.join(' AND ')
  }

  const kindList = kinds.map((k) => `'${k}'`).join(', ')
  const db = cache.db
  // bm25() costs a pass over every matching document, and a common word matches most of a large
  // cache: beyond RANKED matches only the newest RANKED documents (by rowid, which FTS5 walks
  // cheaply) are ranked, and the total becomes an estimate.
  const matches = db.prepare('SELECT count(*) FROM search_fts WHERE search_fts MATCH ?').pluck().get(match) as number
  const floor = matches > RANKED ? (db.prepare('SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?').pluck().get(match, RANKED - 1) as number) : 0
  // bm25() works only where the FTS table drives the query: rank inside a materialized CTE,
  // then roll notes up into their items (CROSS JOIN keeps the matches as the outer loop).
  const ranked = `
    WITH f AS MATERIALIZED (SELECT rowid, bm25(search_fts, 10.0, 1.0) AS score FROM search_fts WHERE search_fts MATCH ? AND rowid >= ?)
    SELECT d.parent_kind AS kind, d.parent_id AS id, MIN(f.score) AS score, f.rowid AS best, d.kind AS best_kind
    FROM f CROSS JOIN search_docs d ON d.rowid = f.rowid
    WHERE d.acct = ? AND d.parent_kind IN (${kindList})
    GROUP BY d.parent_kind, d.parent_id`
  let sql = ranked
  const args: unknown[] = [match, floor, acct]
  if (needsItem) {
    const parts = kinds.map((k) => {
      // One state argument per part, after the MATCH and acct arguments, in the parts' order.
      if (params.state !== undefined) args.push(params.state)
      return `(r.kind = '${k}' AND EXISTS (SELECT 1 FROM ${TABLES[k]} i WHERE i.acct = ${acct} AND i.id = r.id AND ${filterSql(k)}))`
    })
    sql = `SELECT r.* FROM (${ranked}) r WHERE ${parts.join(' OR ')}`
  }
  // SQLite gives the bare columns `best` and `best_kind` from the row where MIN() found the score.
  const all = db.prepare(sql).all(...args) as { kind: keyof typeof TABLES; id: number; score: number; best: number; best_kind: string }[]
  all.sort((a, b) => a.score - b.score || a.id - b.id)
  const total = floor === 0 ? all.length : Math.round((all.length * matches) / RANKED)
  const top = all.slice(offset, offset + limit)

  const doc = db.prepare('SELECT title, body FROM search_docs WHERE rowid = ?')
  const terms = queryTerms(params.query)
  const hits: SearchHit[] = []
  for (const t of top) {
    const row = db.prepare(`SELECT json FROM ${TABLES[t.kind]} WHERE acct = ? AND id = ?`).pluck().get(acct, t.id) as string | undefined
    if (row === undefined) continue
    const data = JSON.parse(row) as Record<string, unknown>
    // Snippets are cut here rather than by FTS5's snippet(), which would run the query again per hit.
    const d = doc.get(t.best) as { title: string | null; body: string | null } | undefined
    const titleParts = d?.title == null ? [] : markTerms(d.title, terms)
    const matchedIn: SearchHit['matched_in'] = t.best_kind === 'note' ? 'note' : titleParts.some((p) => p.match) ? 'title' : 'description'
    const snippet = matchedIn === 'title' ? titleParts : excerpt(d?.body ?? '', terms)
    hits.push({
      kind: t.kind,
      id: t.id,
      project_id: typeof data.project_id === 'number' ? data.project_id : null,
      group_id: typeof data.group_id === 'number' ? data.group_id : null,
      iid: typeof data.iid === 'number' ? data.iid : 0,
      title: typeof data.title === 'string' ? data.title : '',
      state: typeof data.state === 'string' ? data.state : '',
      web_url: typeof data.web_url === 'string' ? data.web_url : null,
      matched_in: matchedIn,
      snippet,
      score: t.score,
    })
  }
  return { hits, total, exact: floor === 0 }
}
