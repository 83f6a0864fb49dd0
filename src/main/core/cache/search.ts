import type { Statement } from 'better-sqlite3'
import type { SearchHit, SearchKind, SearchParams, SearchResult, SnippetPart } from '../../../shared/ipc/cache'
import type { Cache } from './cache'

/** A word of a query as the index sees it: lowercased, without diacritics; each matches as a prefix of a token. */
type Term = string

/**
 * A character of a word as unicode61 sees it: a letter or a digit. SQLite's tables are of an
 * older Unicode, in which 21 of today's letters (New Tai Lue and Vedic signs, marks then) part
 * words; they part them here too, so a typed word is never two words of the index, a phrase,
 * which the index cannot answer (it keeps no positions since migration 142).
 */
const WORD_CHAR = String.raw`(?![\u19B0-\u19C0\u19C8\u19C9\u1CF2\u1CF3])[\p{L}\p{N}]`
/** Runs of word characters; shared, as matchAll walks a copy of the regex it is given. */
const WORDS = new RegExp(`(?:${WORD_CHAR})+`, 'gu')
const ONE_WORD_CHAR = new RegExp(`^${WORD_CHAR}$`, 'u')
const isWordChar = (c: string): boolean => ONE_WORD_CHAR.test(c)

/** The searchable words of what a person typed (runs of letters and digits, as unicode61 tokenizes), folded. */
export function queryTerms(input: string): Term[] {
  return [...fold(input).matchAll(WORDS)].map((m) => m[0])
}

/**
 * The FTS5 query for what a person typed: every word required, each as a prefix (`postcode
 * irel` finds "Postcodes in Ireland"), quoted so `-`, `:` or `"` are text, not operators.
 * Null when nothing searchable is left. (searchCache itself turns long prefixes into the exact
 * words they stand for: see TermExpansions.)
 */
export function ftsQuery(input: string): string | null {
  const terms = queryTerms(input)
  return terms.length === 0 ? null : matchExpression(terms.map((t) => ({ term: t, words: null })))
}

/** Each term as a prefix query, or as the OR of the exact words it was expanded to (never none). */
function matchExpression(terms: readonly { readonly term: Term; readonly words: readonly string[] | null }[]): string {
  const quote = (word: string): string => `"${word.replace(/"/g, '""')}"`
  return terms
    .map(({ term, words }) => {
      if (words === null) return `${quote(term)}*`
      return words.length === 1 ? quote(words[0]) : `(${words.map(quote).join(' OR ')})`
    })
    .join(' AND ')
}

/** The longest prefix the index has its own prefix index for (migration 141: `prefix = '2 3 4'`). */
const PREFIX_INDEXED = 4
/** A longer prefix standing for more words than this is left to FTS5's prefix query. */
const MAX_EXPANSION = 16

/**
 * The words of the index a prefix stands for. FTS5 answers a prefix longer than its prefix
 * indexes by first copying the doclists of every word that starts with it into one (the whole
 * of them, however few rows the search needs: about 4 ms for a word in all of 100k documents);
 * the same words as an OR of exact terms are read lazily, newest first, only as far as the
 * search window goes. The words come from the index's vocabulary (a temporary fts5vocab table
 * of this connection); listing them reads their doclists too, so they are kept until the
 * cache next changes.
 */
class TermExpansions {
  private readonly known = new Map<Term, readonly string[] | null>()
  private readonly vocabulary: Statement

  constructor(cache: Cache) {
    cache.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, 'search_fts', 'row')")
    this.vocabulary = cache.db
      .prepare('SELECT term FROM temp.search_vocab WHERE term >= ? AND term < ? LIMIT ?')
      .pluck()
    cache.onDidChange(() => this.known.clear())
  }

  /** The words `term` stands for, or null to leave it a prefix query (short, or too many words). */
  expand(term: Term): readonly string[] | null {
    if ([...term].length <= PREFIX_INDEXED) return null
    let words = this.known.get(term)
    if (words === undefined) {
      // The first string after every word that starts with `term`.
      const chars = [...term]
      const end = chars.slice(0, -1).join('') + String.fromCodePoint((chars[chars.length - 1].codePointAt(0) ?? 0) + 1)
      const found = this.vocabulary.all(term, end, MAX_EXPANSION + 1) as string[]
      words = found.length > MAX_EXPANSION ? null : found
      this.known.set(term, words)
    }
    return words
  }
}

/** What searches of one cache keep between them: prefix expansions and the statements reading hits. */
interface SearchCache {
  readonly expansions: TermExpansions
  readonly items: Readonly<Record<SearchKind, Statement>>
  readonly docBody: Statement
  /** A statement of this cache's searches, prepared once (their SQL varies only with the kinds and filters asked). */
  statement(sql: string): Statement
}

const searchCaches = new WeakMap<Cache, SearchCache>()

function searchCacheOf(cache: Cache): SearchCache {
  let kept = searchCaches.get(cache)
  if (kept === undefined) {
    const prepare = (sql: string): Statement => cache.db.prepare(sql)
    const prepared = new Map<string, Statement>()
    kept = {
      expansions: new TermExpansions(cache),
      items: {
        issue: prepare(ITEM_SQL.issue),
        merge_request: prepare(ITEM_SQL.merge_request),
        epic: prepare(ITEM_SQL.epic),
        milestone: prepare(ITEM_SQL.milestone),
      },
      docBody: prepare('SELECT rowid, body FROM search_docs WHERE rowid IN (SELECT value FROM json_each(?))').raw(),
      statement(sql) {
        let statement = prepared.get(sql)
        if (statement === undefined) prepared.set(sql, (statement = prepare(sql)))
        return statement
      },
    }
    searchCaches.set(cache, kept)
  }
  return kept
}

/** Lowercased without diacritics, as unicode61 with remove_diacritics folds; ASCII (most text) takes the short way. */
export function fold(text: string): string {
  return !/[^\p{ASCII}]/u.test(text) ? text.toLowerCase() : text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

const matchesTerm = (token: string, terms: readonly Term[]): boolean => terms.some((t) => token.startsWith(t))

/** Whether every term starts a token of `text`. */
export function hasAllTerms(text: string, terms: readonly Term[]): boolean {
  const tokens = [...fold(text).matchAll(WORDS)].map((m) => m[0])
  return terms.every((t) => tokens.some((token) => token.startsWith(t)))
}

/** Splits text into pieces, marking the tokens the query terms match (as unicode61 tokenizes: runs of letters and digits). */
export function markTerms(text: string, terms: readonly Term[]): SnippetPart[] {
  const parts: SnippetPart[] = []
  let last = 0
  for (const m of text.matchAll(WORDS)) {
    if (!matchesTerm(fold(m[0]), terms)) continue
    if (m.index > last) parts.push({ text: text.slice(last, m.index), match: false })
    parts.push({ text: m[0], match: true })
    last = m.index + m[0].length
  }
  if (last < text.length) parts.push({ text: text.slice(last), match: false })
  return parts
}

/**
 * A description's text as a reader sees it, for a snippet: without Markdown's heading, bullet, quote
 * and task-box marks at line starts, bold, strike-through and code marks, or code fences; links
 * as their text; on one line. Numbered lists keep their numbers, and single `*`/`_` stay (snake_case).
 */
function snippetText(markdown: string): string {
  return markdown
    .replace(/^\s{0,3}```.*$/gm, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(?:#{1,6}|>|[-*+])\s+(?:\[[ xX]\]\s+)?/gm, '')
    .replace(/\*\*|__|~~|`/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** About 160 characters of `text` around its first match, with the matches marked. */
function excerpt(text: string, terms: readonly Term[]): SnippetPart[] {
  // Only the tokens up to the first match are looked at, however long the description.
  let first = -1
  for (const m of (text.length > 20_000 ? text.slice(0, 20_000) : text).matchAll(WORDS)) {
    if (matchesTerm(fold(m[0]), terms)) {
      first = m.index
      break
    }
  }
  const start = Math.max(0, (first < 0 ? 0 : first) - 60)
  // A token cut at the window's edge would be marked by what is left of it: widen to whole tokens.
  let end = Math.min(text.length, start + 160)
  while (end < text.length && isWordChar(text[end])) end++
  let from = start
  while (from > 0 && isWordChar(text[from - 1])) from--
  const out: SnippetPart[] = from > 0 ? [{ text: '…', match: false }] : []
  out.push(...markTerms(text.slice(from, end), terms))
  if (end < text.length) out.push({ text: '…', match: false })
  return out
}

/** How many matching documents, newest first, one search ranks at most (see searchCache). */
export const SEARCH_WINDOW = 2000

/** Kinds searched when the caller names none. */
const ALL_KINDS: readonly SearchKind[] = ['issue', 'merge_request', 'epic', 'milestone']

/** Items of the full-text index (milestones are matched on their table: there are few). */
type IndexedKind = Exclude<SearchKind, 'milestone'>

/** How a hit ranks: a reference asked for, all words in the title, or words found elsewhere. */
const TIER = { reference: 0, title: 1, elsewhere: 2 } as const

/** One item found, before it is read for the page. */
interface Found {
  readonly kind: SearchKind
  readonly id: number
  readonly tier: number
  /** The document that matched best (items of the index), for the snippet. */
  readonly doc: number | null
  readonly docKind: string | null
}

/** What a hit is read from: the item's row, its project's or group's path. */
const ITEM_SQL: Readonly<Record<SearchKind, string>> = {
  issue: itemSql(
    'issues',
    'x.project_id',
    'NULL',
    'p.path_with_namespace',
    'LEFT JOIN projects p ON p.acct = x.acct AND p.id = x.project_id',
  ),
  merge_request: itemSql(
    'merge_requests',
    'x.project_id',
    'NULL',
    'p.path_with_namespace',
    'LEFT JOIN projects p ON p.acct = x.acct AND p.id = x.project_id',
  ),
  epic: itemSql(
    'epics',
    'NULL',
    'x.group_id',
    'g.full_path',
    'LEFT JOIN groups g ON g.acct = x.acct AND g.id = x.group_id',
  ),
  milestone: itemSql(
    'milestones',
    'x.project_id',
    'x.group_id',
    'coalesce(p.path_with_namespace, g.full_path)',
    'LEFT JOIN projects p ON p.acct = x.acct AND p.id = x.project_id LEFT JOIN groups g ON g.acct = x.acct AND g.id = x.group_id',
    'x.description',
  ),
}

function itemSql(
  table: string,
  projectId: string,
  groupId: string,
  path: string,
  joins: string,
  description = 'NULL',
): string {
  // The columns follow the JSON (optimistic changes included); only the URL is read from it.
  return `SELECT x.id AS id, ${projectId} AS project_id, ${groupId} AS group_id, x.iid AS iid, x.title AS title,
            x.state AS state, json_extract(x.json, '$.web_url') AS web_url, ${description} AS description, ${path} AS path
          FROM ${table} x ${joins} WHERE x.acct = ? AND x.id IN (SELECT value FROM json_each(?))`
}

interface ItemRow {
  readonly id: number
  readonly project_id: number | null
  readonly group_id: number | null
  readonly iid: unknown
  readonly title: unknown
  readonly state: unknown
  readonly web_url: unknown
  /** Milestones only: the others' descriptions are in their search documents. */
  readonly description: unknown
  readonly path: string | null
}

const SIGIL: Readonly<Record<SearchKind, string>> = { issue: '#', merge_request: '!', epic: '&', milestone: '%' }

/**
 * GitLab's reference of an item: `group/project#12`, `group/project!4`, `group&2`,
 * `group/project%"Sprint 3"` (a milestone's title, quoted unless one word); without the path
 * when its project or group is not cached.
 */
export function referenceOf(kind: SearchKind, path: string | null, iid: number, title: string): string {
  const local =
    kind === 'milestone'
      ? `%${/^[\p{L}\p{N}_.-]+$/u.test(title) ? title : `"${title.replace(/"/g, '')}"`}`
      : `${SIGIL[kind]}${iid}`
  return `${path ?? ''}${local}`
}

/** A reference typed in place of words: `#12`, `!4`, `&2`, `group/project#12`, `%milestone`. */
type Reference =
  | { readonly kind: IndexedKind; readonly path: string | null; readonly iid: number }
  | { readonly kind: 'milestone'; readonly path: string | null; readonly title: string }

const PATH = String.raw`[\p{L}\p{N}_.-]+(?:/[\p{L}\p{N}_.-]+)*`
const ITEM_REFERENCE = new RegExp(String.raw`^(${PATH})?([#!&])(\d+)$`, 'u')
const MILESTONE_REFERENCE = new RegExp(String.raw`^(${PATH})?%(.*)$`, 'u')

/** The reference `input` is, if it is one. */
export function parseReference(input: string): Reference | null {
  const text = input.trim()
  const item = ITEM_REFERENCE.exec(text)
  if (item !== null) {
    const kind = ({ '#': 'issue', '!': 'merge_request', '&': 'epic' } as const)[item[2] as '#' | '!' | '&']
    return { kind, path: item[1] ?? null, iid: Number(item[3]) }
  }
  const milestone = MILESTONE_REFERENCE.exec(text)
  if (milestone !== null)
    return { kind: 'milestone', path: milestone[1] ?? null, title: milestone[2].replace(/^"|"$/g, '').trim() }
  return null
}

/**
 * Search of one account's cache: issues, merge requests and epics by their titles,
 * descriptions and comments (the full-text index), milestones by title and description; or,
 * when the query is a reference (`#12`, `group/project!4`, `&2`, `%Sprint`), the items it names.
 *
 * Every word must match, each as a prefix of a word of the text. Items whose title holds every
 * word rank first, then those matched in a description or comment; newest first within each.
 * A comment's match counts for its item, which shows once.
 *
 * One pass of the FTS index, newest documents first, keeps the documents of this account,
 * kinds and filters (project, group and state are columns of each document, so the filters
 * apply to every match) and stops after `SEARCH_WINDOW` of them: a query that matches more
 * ranks the newest `SEARCH_WINDOW` only, and its `total` is an estimate (`exact: false`) from
 * how densely the window's matches lie in the index. Which of those hold every word in their
 * title is tested on the window's titles, which the pass brings along. No relevance function
 * runs (bm25 first reads every term's whole doclist: most of a search's cost on a large
 * cache). Only the page's hits read their items and get snippets, in one query per kind.
 */
export function searchCache(
  cache: Cache,
  accountId: string,
  params: SearchParams,
  options: { readonly window?: number } = {},
): SearchResult {
  const acct = cache.existingAcct(accountId)
  if (acct === null) return { hits: [], total: 0, exact: true }
  const kinds = params.kinds ?? ALL_KINDS
  const limit = Math.min(200, Math.max(1, params.limit ?? 50))
  const offset = Math.max(0, params.offset ?? 0)
  const reference = parseReference(params.query)
  if (reference !== null) {
    const found = kinds.includes(reference.kind) ? referenced(cache, acct, reference, params) : []
    return { hits: readHits(cache, acct, found.slice(offset, offset + limit), []), total: found.length, exact: true }
  }
  const terms = queryTerms(params.query)
  if (terms.length === 0) return { hits: [], total: 0, exact: true }
  const indexed = kinds.filter((k): k is IndexedKind => k !== 'milestone')
  const text =
    indexed.length === 0
      ? { found: [], total: 0, exact: true }
      : searchIndex(cache, acct, terms, indexed, params, Math.max(1, options.window ?? SEARCH_WINDOW))
  const milestones = kinds.includes('milestone') ? matchingMilestones(cache, acct, terms, params) : []
  const ranked = [...milestones, ...text.found].sort((a, b) => a.tier - b.tier)
  return {
    hits: readHits(cache, acct, ranked.slice(offset, offset + limit), terms),
    total: text.total + milestones.length,
    exact: text.exact,
  }
}

/** Issues, merge requests and epics whose documents hold every term, ranked (see searchCache). */
function searchIndex(
  cache: Cache,
  acct: number,
  terms: readonly Term[],
  kinds: readonly IndexedKind[],
  params: SearchParams,
  window: number,
): { found: Found[]; total: number; exact: boolean } {
  const kept = searchCacheOf(cache)
  const expanded = terms.map((term) => ({ term, words: kept.expansions.expand(term) }))
  // A prefix no word of the index starts with matches nothing.
  if (expanded.some((x) => x.words?.length === 0)) return { found: [], total: 0, exact: true }
  const filters = filterClauses(cache, acct, params, 'd.', (state) => state)
  const where = [
    'search_fts MATCH ?',
    'd.acct = ?',
    `d.parent_kind IN (${kinds.map(() => '?').join(', ')})`,
    ...filters.where,
  ]
  const rows = kept
    .statement(
      `SELECT f.rowid, d.parent_kind, d.parent_id, d.kind, CASE WHEN d.kind = 'note' THEN NULL ELSE d.title END
       FROM search_fts f CROSS JOIN search_docs d ON d.rowid = f.rowid
       WHERE ${where.join(' AND ')}
       ORDER BY f.rowid DESC LIMIT ?`,
    )
    .raw()
    .all(matchExpression(expanded), acct, ...kinds, ...filters.args, window + 1) as WindowRow[]
  const truncated = rows.length > window
  if (truncated) rows.length = window
  if (rows.length === 0) return { found: [], total: 0, exact: true }

  // Which documents hold every word in their title is tested here rather than by a second,
  // title-only match: FTS5 would read the whole doclist of each word for it (a word found in every
  // description but no title walks all of them), where these few thousand short titles are at hand.
  const inTitle = titleTest(terms)
  // Each item once, where it first shows (its newest document), with its best document: one
  // whose title holds every word, else the newest. Title matches rank first, each tier in order.
  const items = new Map<string, Found>()
  for (const [rowid, kind, id, docKind, title] of rows) {
    const key = `${kind}:${id}`
    const known = items.get(key)
    if (known !== undefined && known.tier === TIER.title) continue
    const tier = title !== null && inTitle(title) ? TIER.title : TIER.elsewhere
    // A later (older) row replaces what is known only when it matches the title; the Map keeps the first place.
    if (known === undefined || tier < known.tier) items.set(key, { kind, id, tier, doc: rowid, docKind })
  }
  const found: Found[] = []
  for (const f of items.values()) if (f.tier === TIER.title) found.push(f)
  for (const f of items.values()) if (f.tier !== TIER.title) found.push(f)
  let total = found.length
  if (truncated) {
    // The window's matches lie between its oldest rowid and the newest; the rest of the index,
    // down to its first rowid, is taken to hold them as densely.
    const lowest = (kept.statement('SELECT min(rowid) FROM search_docs').pluck().get() as number | null) ?? 0
    const newest = rows[0][0]
    const oldest = rows[rows.length - 1][0]
    total = Math.max(found.length + 1, Math.round((found.length * (newest - lowest + 1)) / (newest - oldest + 1)))
  }
  return { found, total, exact: !truncated }
}

/** A row of the search window: rowid, item kind, item id, document kind, and the title (null for notes). */
type WindowRow = [number, IndexedKind, number, string, string | null]

/**
 * Whether a title holds every term, each as the start of a word (the index's own rule: folded,
 * words as unicode61 parts them). Each term is looked for with indexOf and kept where no word
 * character comes right before it, so a few thousand titles cost a fraction of a millisecond.
 */
function titleTest(terms: readonly Term[]): (title: string) => boolean {
  const startsWord = (text: string, term: Term): boolean => {
    for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + 1)) {
      if (at === 0) return true
      const before = text.charCodeAt(at - 1)
      // ASCII, most of what comes before a word, without a regex: anything but a letter or a digit.
      if (before < 0x80) {
        if (!(
          (before >= 0x30 && before <= 0x39) ||
          (before >= 0x61 && before <= 0x7a) ||
          (before >= 0x41 && before <= 0x5a)
        ))
          return true
      } else if (
        !isWordChar(String.fromCodePoint(text.codePointAt(at - (before >= 0xdc00 && before <= 0xdfff ? 2 : 1)) ?? 0))
      )
        return true
    }
    return false
  }
  return (title) => {
    const folded = fold(title)
    return terms.every((t) => startsWord(folded, t))
  }
}

/**
 * The filter's project, group and state as conditions on the columns of `alias` (search
 * documents and milestones both carry project_id, group_id and state). A group stands for its
 * own rows (epics, group milestones) and those of the projects in it and its subgroups.
 */
function filterClauses(
  cache: Cache,
  acct: number,
  params: SearchParams,
  alias: string,
  state: (value: string) => string,
): { where: string[]; args: unknown[] } {
  const where: string[] = []
  const args: unknown[] = []
  if (params.project_id !== undefined) {
    where.push(`${alias}project_id = ?`)
    args.push(params.project_id)
  }
  if (params.group_id !== undefined) {
    where.push(`(${alias}group_id = ? OR ${alias}project_id IN (SELECT value FROM json_each(?)))`)
    args.push(params.group_id, JSON.stringify(projectsOfGroup(cache, acct, params.group_id)))
  }
  if (params.state !== undefined) {
    where.push(`${alias}state = ?`)
    args.push(state(params.state))
  }
  return { where, args }
}

/** The projects in a group and its subgroups. */
function projectsOfGroup(cache: Cache, acct: number, groupId: number): number[] {
  return cache.db
    .prepare(
      `SELECT p.id FROM projects p JOIN groups g ON g.acct = p.acct AND g.id = ?
       WHERE p.acct = ? AND (p.namespace_full_path = g.full_path OR substr(p.namespace_full_path, 1, length(g.full_path) + 1) = g.full_path || '/')`,
    )
    .pluck()
    .all(groupId, acct) as number[]
}

/** Milestones with every term in their title (first) or description; a few hundred rows at most, so read whole. */
function matchingMilestones(cache: Cache, acct: number, terms: readonly Term[], params: SearchParams): Found[] {
  const rows = milestoneRows(cache, acct, params)
  const found: Found[] = []
  for (const m of rows) {
    if (hasAllTerms(m.title, terms))
      found.push({ kind: 'milestone', id: m.id, tier: TIER.title, doc: null, docKind: null })
    else if (hasAllTerms(`${m.title} ${m.description ?? ''}`, terms))
      found.push({ kind: 'milestone', id: m.id, tier: TIER.elsewhere, doc: null, docKind: null })
  }
  return found
}

function milestoneRows(
  cache: Cache,
  acct: number,
  params: SearchParams,
): { id: number; title: string; description: string | null }[] {
  // Milestones are `active`/`closed`; an item filter's `opened` means the active ones.
  const { where, args } = filterClauses(cache, acct, params, '', (state) => (state === 'opened' ? 'active' : state))
  return cache.db
    .prepare(
      `SELECT id, title, description FROM milestones WHERE ${['acct = ?', ...where].join(' AND ')} ORDER BY due_date IS NULL, due_date DESC, id DESC`,
    )
    .all(acct, ...args) as {
    id: number
    title: string
    description: string | null
  }[]
}

const REFERENCE_TABLES: Readonly<
  Record<IndexedKind, { readonly table: string; readonly parent: 'project_id' | 'group_id'; readonly paths: string }>
> = {
  issue: {
    table: 'issues',
    parent: 'project_id',
    paths: 'projects p ON p.acct = x.acct AND p.id = x.project_id AND lower(p.path_with_namespace) = lower(?)',
  },
  merge_request: {
    table: 'merge_requests',
    parent: 'project_id',
    paths: 'projects p ON p.acct = x.acct AND p.id = x.project_id AND lower(p.path_with_namespace) = lower(?)',
  },
  epic: {
    table: 'epics',
    parent: 'group_id',
    paths: 'groups p ON p.acct = x.acct AND p.id = x.group_id AND lower(p.full_path) = lower(?)',
  },
}

/**
 * The items a reference names: with a path, the one item of that project or group; without,
 * that number in every project (or group) of the cache, or in the filter's project, most
 * recently updated first. A milestone reference matches titles by their beginning, then by words.
 */
function referenced(cache: Cache, acct: number, ref: Reference, params: SearchParams): Found[] {
  if (ref.kind === 'milestone') {
    const rows = milestoneRows(cache, acct, params)
    const path = ref.path === null ? null : new Set(milestonePathIds(cache, acct, ref.path))
    const wanted = fold(ref.title)
    const terms = queryTerms(ref.title)
    return rows
      .filter((m) => path === null || path.has(m.id))
      .map((m) => ({
        m,
        tier: fold(m.title).startsWith(wanted) ? TIER.reference : hasAllTerms(m.title, terms) ? TIER.title : null,
      }))
      .filter((x): x is { m: (typeof rows)[number]; tier: 0 | 1 } => x.tier !== null)
      .sort((a, b) => a.tier - b.tier)
      .map(({ m, tier }) => ({ kind: 'milestone', id: m.id, tier, doc: null, docKind: null }))
  }
  const t = REFERENCE_TABLES[ref.kind]
  const where = ['x.acct = ?', 'x.iid = ?']
  const args: unknown[] = [acct, ref.iid]
  // The filter's project or group narrows a reference without a path (`#12` in this project).
  const parent = t.parent === 'project_id' ? params.project_id : params.group_id
  if (parent !== undefined) {
    where.push(`x.${t.parent} = ?`)
    args.push(parent)
  }
  const join = ref.path === null ? '' : `JOIN ${t.paths}`
  const ids = cache.db
    .prepare(
      `SELECT x.id FROM ${t.table} x ${join} WHERE ${where.join(' AND ')} ORDER BY x.updated_at DESC, x.id DESC LIMIT 200`,
    )
    .pluck()
    .all(...(ref.path === null ? [] : [ref.path]), ...args) as number[]
  return ids.map((id) => ({ kind: ref.kind, id, tier: TIER.reference, doc: null, docKind: null }))
}

/** Milestones of the project or group at `path`. */
function milestonePathIds(cache: Cache, acct: number, path: string): number[] {
  return cache.db
    .prepare(
      `SELECT m.id FROM milestones m
       LEFT JOIN projects p ON p.acct = m.acct AND p.id = m.project_id
       LEFT JOIN groups g ON g.acct = m.acct AND g.id = m.group_id
       WHERE m.acct = ? AND lower(coalesce(p.path_with_namespace, g.full_path)) = lower(?)`,
    )
    .pluck()
    .all(acct, path) as number[]
}

/** Reads the page's items, with their paths, references and snippets: one query per kind, one for the documents. */
function readHits(cache: Cache, acct: number, page: readonly Found[], terms: readonly Term[]): SearchHit[] {
  const { items, docBody } = searchCacheOf(cache)
  const rows = new Map<string, ItemRow>()
  for (const kind of new Set(page.map((f) => f.kind))) {
    const ids = page.filter((f) => f.kind === kind).map((f) => f.id)
    for (const row of items[kind].all(acct, JSON.stringify(ids)) as ItemRow[]) rows.set(`${kind}:${row.id}`, row)
  }
  const docs = page.flatMap((f) => (f.doc === null || f.tier === TIER.reference ? [] : [f.doc]))
  const bodies = new Map(docs.length === 0 ? [] : (docBody.all(JSON.stringify(docs)) as [number, string | null][]))
  const hits: SearchHit[] = []
  page.forEach((f, position) => {
    const item = rows.get(`${f.kind}:${f.id}`)
    if (item === undefined) return
    const title = typeof item.title === 'string' ? item.title : ''
    const iid = typeof item.iid === 'number' ? item.iid : 0
    const { matchedIn, snippet } =
      f.tier === TIER.reference
        ? { matchedIn: 'reference' as const, snippet: [{ text: title, match: false }] }
        : matchOf(f, item, terms, f.doc === null ? null : (bodies.get(f.doc) ?? null))
    hits.push({
      kind: f.kind,
      id: f.id,
      project_id: item.project_id,
      group_id: item.group_id,
      iid,
      title,
      state: typeof item.state === 'string' ? item.state : '',
      web_url: typeof item.web_url === 'string' ? item.web_url : null,
      path: item.path,
      reference: referenceOf(f.kind, item.path, iid, title),
      matched_in: matchedIn,
      snippet,
      // Comparable across accounts (their pages are merged): the tier, then the place within it.
      score: f.tier + position / (page.length + 1),
    })
  })
  return hits
}

/** Where a word search matched an item, and the piece of text to show. */
function matchOf(
  f: Found,
  item: ItemRow,
  terms: readonly Term[],
  docBody: string | null,
): { matchedIn: SearchHit['matched_in']; snippet: SnippetPart[] } {
  // Snippets are cut here rather than by FTS5's snippet(), which would run the query again per hit.
  const markdown =
    f.kind === 'milestone' ? (typeof item.description === 'string' ? item.description : '') : (docBody ?? '')
  // Shown as text: `### Summary` and `**bold**` would read as the marks themselves.
  const body = snippetText(markdown.length > 20_000 ? markdown.slice(0, 20_000) : markdown)
  // A title match shows the description below the title rather than the title twice.
  if (f.tier === TIER.title) return { matchedIn: 'title', snippet: body.trim() === '' ? [] : excerpt(body, terms) }
  return { matchedIn: f.docKind === 'note' ? 'note' : 'description', snippet: excerpt(body, terms) }
}
