import type { SearchHit, SearchParams, SearchResult, SnippetPart } from '../../../shared/ipc/cache'
import type { Cache } from './cache'

const OPEN = '\u0001'
const CLOSE = '\u0002'

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

function snippetParts(text: string): SnippetPart[] {
  const parts: SnippetPart[] = []
  const re = new RegExp(`${OPEN}([^${CLOSE}]*)${CLOSE}`, 'g')
  let last = 0
  for (const m of text.matchAll(re)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index), match: false })
    parts.push({ text: m[1], match: true })
    last = m.index + m[0].length
  }
  if (last < text.length) parts.push({ text: text.slice(last), match: false })
  return parts
}

const TABLES = { issue: 'issues', merge_request: 'merge_requests', epic: 'epics' } as const

/**
 * Ranked full-text search over titles, descriptions and notes of one account's issues, merge
 * requests and epics. A note's match counts for its item; an item shows once, at its best
 * match (bm25 with titles weighted 10 to 1).
 */
export function searchCache(cache: Cache, accountId: string, params: SearchParams): SearchResult {
  const acct = cache.existingAcct(accountId)
  const match = ftsQuery(params.query)
  if (acct === null || match === null) return { hits: [], total: 0 }
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
  // bm25() works only where the FTS table drives the query: rank inside a materialized CTE,
  // then roll notes up into their items.
  const ranked = `
    SELECT d.parent_kind AS kind, d.parent_id AS id, MIN(f.score) AS score
    FROM f JOIN search_docs d ON d.rowid = f.rowid
    WHERE d.acct = ? AND d.parent_kind IN (${kindList})
    GROUP BY d.parent_kind, d.parent_id`
  const cte = 'WITH f AS MATERIALIZED (SELECT rowid, bm25(search_fts, 10.0, 1.0) AS score FROM search_fts WHERE search_fts MATCH ?) '
  let sql = ranked
  const args: unknown[] = [match, acct]
  if (needsItem) {
    const parts = kinds.map((k) => {
      // One state argument per part, after the MATCH and acct arguments, in the parts' order.
      if (params.state !== undefined) args.push(params.state)
      return `(r.kind = '${k}' AND EXISTS (SELECT 1 FROM ${TABLES[k]} i WHERE i.acct = ${acct} AND i.id = r.id AND ${filterSql(k)}))`
    })
    sql = `SELECT r.* FROM (${ranked}) r WHERE ${parts.join(' OR ')}`
  }
  const db = cache.db
  const total = db.prepare(`${cte}SELECT COUNT(*) FROM (${sql})`).pluck().get(...args) as number
  const top = db.prepare(`${cte}${sql} ORDER BY score, id LIMIT ? OFFSET ?`).all(...args, limit, offset) as { kind: keyof typeof TABLES; id: number; score: number }[]

  const best = db.prepare(`
    SELECT rowid, snippet(search_fts, -1, '${OPEN}', '${CLOSE}', '…', 16) AS snip, highlight(search_fts, 0, '${OPEN}', '${CLOSE}') AS title_hl
    FROM search_fts
    WHERE search_fts MATCH ? AND rowid IN (SELECT rowid FROM search_docs WHERE acct = ? AND parent_kind = ? AND parent_id = ?)
    ORDER BY bm25(search_fts, 10.0, 1.0) LIMIT 1`)
  const docKind = db.prepare('SELECT kind FROM search_docs WHERE rowid = ?').pluck()
  const hits: SearchHit[] = []
  for (const t of top) {
    const row = db.prepare(`SELECT json FROM ${TABLES[t.kind]} WHERE acct = ? AND id = ?`).pluck().get(acct, t.id) as string | undefined
    if (row === undefined) continue
    const data = JSON.parse(row) as Record<string, unknown>
    const found = best.get(match, acct, t.kind, t.id) as { rowid: number; snip: string; title_hl: string | null } | undefined
    const b = found === undefined ? undefined : { ...found, kind: docKind.get(found.rowid) as string }
    const matchedIn: SearchHit['matched_in'] = b === undefined || b.kind !== 'note' ? (b?.title_hl?.includes(OPEN) ? 'title' : 'description') : 'note'
    const snippetText = matchedIn === 'title' ? (b?.title_hl ?? '') : (b?.snip ?? '')
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
      snippet: snippetParts(snippetText),
      score: t.score,
    })
  }
  return { hits, total }
}
