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
  // Only the tokens up to the first match are looked at, however long the description.
  let first = -1
  for (const m of (text.length > 20_000 ? text.slice(0, 20_000) : text).matchAll(/[\p{L}\p{N}]+/gu)) {
    const token = fold(m[0])
    if (terms.some((t) => (t.prefix ? token.startsWith(t.word) : token === t.word))) {
      first = m.index
      break
    }
  }
  const start = Math.max(0, (first < 0 ? 0 : first) - 60)
  // A token cut at the window's edge would be marked by what is left of it: widen to whole tokens.
  let end = Math.min(text.length, start + 160)
  while (end < text.length && /[\p{L}\p{N}]/u.test(text[end])) end++
  let from = start
  while (from > 0 && /[\p{L}\p{N}]/u.test(text[from - 1])) from--
  const out: SnippetPart[] = from > 0 ? [{ text: '…', match: false }] : []
  out.push(...markTerms(text.slice(from, end), terms))
  if (end < text.length) out.push({ text: '…', match: false })
  return out
}

const TABLES = { issue: 'issues', merge_request: 'merge_requests', epic: 'epics' } as const

/** How many matching documents, newest first, one search ranks at most (see searchCache). */
export const SEARCH_WINDOW = 2000

interface Candidate {
  readonly kind: keyof typeof TABLES
  readonly id: number
  score: number
  best: number
  bestKind: string
}

/**
 * Ranked full-text search over titles, descriptions and notes of one account's issues, merge
 * requests and epics. A note's match counts for its item; an item shows once, at its best
 * match (bm25 with titles weighted 10 to 1).
 *
 * One pass of the FTS index, newest documents first, keeps the documents of this account, kinds
 * and filters (project, group and state are columns of each document, so the filters apply to
 * every match, not to a window of them) and stops after `SEARCH_WINDOW` of them: a query that
 * matches more ranks the newest `SEARCH_WINDOW` only, and its `total` is an estimate
 * (`exact: false`) from how densely the window's matches lie in the index. bm25 is computed
 * for those documents only, the page is cut from them, and only the page's hits read their
 * items and get snippets. What stays proportional to the whole match set is bm25's document
 * frequency of each term (FTS5 counts it once per query).
 */
export function searchCache(cache: Cache, accountId: string, params: SearchParams, options: { readonly window?: number } = {}): SearchResult {
  const acct = cache.existingAcct(accountId)
  const match = ftsQuery(params.query)
  if (acct === null || match === null) return { hits: [], total: 0, exact: true }
  const window = Math.max(1, options.window ?? SEARCH_WINDOW)
  const kinds = params.kinds ?? ['issue', 'merge_request', 'epic']
  const limit = Math.min(200, Math.max(1, params.limit ?? 50))
  const offset = Math.max(0, params.offset ?? 0)
  const db = cache.db

  const where = ['search_fts MATCH ?', 'd.acct = ?', `d.parent_kind IN (${kinds.map(() => '?').join(', ')})`]
  const args: unknown[] = [match, acct, ...kinds]
  if (params.project_id !== undefined) {
    where.push('d.project_id = ?')
    args.push(params.project_id)
  }
  if (params.group_id !== undefined) {
    // Epics of that group; issues and merge requests of the projects in it and its subgroups.
    const projects = db
      .prepare(
        `SELECT p.id FROM projects p JOIN groups g ON g.acct = p.acct AND g.id = ?
         WHERE p.acct = ? AND (p.namespace_full_path = g.full_path OR substr(p.namespace_full_path, 1, length(g.full_path) + 1) = g.full_path || '/')`,
      )
      .pluck()
      .all(params.group_id, acct) as number[]
    where.push("(d.group_id = ? OR (d.parent_kind <> 'epic' AND d.project_id IN (SELECT value FROM json_each(?))))")
    args.push(params.group_id, JSON.stringify(projects))
  }
  if (params.state !== undefined) {
    where.push('d.state = ?')
    args.push(params.state)
  }
  // The FTS table is the outer loop (CROSS JOIN) and walks its rowids backwards, so LIMIT stops
  // the walk; bm25() is evaluated only for the rows that pass the filters.
  const rows = db
    .prepare(
      `SELECT f.rowid AS rowid, bm25(search_fts, 10.0, 1.0) AS score, d.parent_kind AS kind, d.parent_id AS id, d.kind AS doc_kind
       FROM search_fts f CROSS JOIN search_docs d ON d.rowid = f.rowid
       WHERE ${where.join(' AND ')}
       ORDER BY f.rowid DESC LIMIT ?`,
    )
    .all(...args, window + 1) as { rowid: number; score: number; kind: keyof typeof TABLES; id: number; doc_kind: string }[]
  const truncated = rows.length > window
  if (truncated) rows.length = window

  const items = new Map<string, Candidate>()
  for (const r of rows) {
    const key = `${r.kind}:${r.id}`
    const known = items.get(key)
    if (known === undefined) items.set(key, { kind: r.kind, id: r.id, score: r.score, best: r.rowid, bestKind: r.doc_kind })
    else if (r.score < known.score) {
      known.score = r.score
      known.best = r.rowid
      known.bestKind = r.doc_kind
    }
  }
  const ranked = [...items.values()].sort((a, b) => a.score - b.score || a.id - b.id)
  let total = ranked.length
  if (truncated) {
    // The window's matches lie between its oldest rowid and the newest; the rest of the index,
    // down to its first rowid, is taken to hold them as densely.
    const lowest = (db.prepare('SELECT min(rowid) FROM search_docs').pluck().get() as number | null) ?? 0
    const newest = rows[0].rowid
    const oldest = rows[rows.length - 1].rowid
    total = Math.max(ranked.length + 1, Math.round((ranked.length * (newest - lowest + 1)) / (newest - oldest + 1)))
  }

  const doc = db.prepare('SELECT title, body FROM search_docs WHERE rowid = ?')
  const terms = queryTerms(params.query)
  const hits: SearchHit[] = []
  for (const t of ranked.slice(offset, offset + limit)) {
    const item = db
      .prepare(
        `SELECT json_extract(json, '$.project_id') AS project_id, json_extract(json, '$.group_id') AS group_id, json_extract(json, '$.iid') AS iid,
           json_extract(json, '$.title') AS title, json_extract(json, '$.state') AS state, json_extract(json, '$.web_url') AS web_url
         FROM ${TABLES[t.kind]} WHERE acct = ? AND id = ?`,
      )
      .get(acct, t.id) as Record<string, unknown> | undefined
    if (item === undefined) continue
    // Snippets are cut here rather than by FTS5's snippet(), which would run the query again per hit.
    const d = doc.get(t.best) as { title: string | null; body: string | null } | undefined
    const titleParts = d?.title == null ? [] : markTerms(d.title, terms)
    const matchedIn: SearchHit['matched_in'] = t.bestKind === 'note' ? 'note' : titleParts.some((p) => p.match) ? 'title' : 'description'
    const snippet = matchedIn === 'title' ? titleParts : excerpt(d?.body ?? '', terms)
    hits.push({
      kind: t.kind,
      id: t.id,
      project_id: typeof item.project_id === 'number' ? item.project_id : null,
      group_id: typeof item.group_id === 'number' ? item.group_id : null,
      iid: typeof item.iid === 'number' ? item.iid : 0,
      title: typeof item.title === 'string' ? item.title : '',
      state: typeof item.state === 'string' ? item.state : '',
      web_url: typeof item.web_url === 'string' ? item.web_url : null,
      matched_in: matchedIn,
      snippet,
      score: t.score,
    })
  }
  return { hits, total, exact: !truncated }
}
