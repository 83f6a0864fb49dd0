import type { SyncPhase, SyncProgress, SyncScope } from '../../../shared/ipc/cache'
import type { ApiClient } from '../api/client'
import { ForbiddenError, NotFoundError } from '../api/errors'
import type { Query } from '../api/query'
import type { Cache } from '../cache/cache'
import { CachedGet } from '../cache/http-cache'
import { issueLinksPath } from '../cache/issue-links'
import { mergeRequestChangesPath } from '../repos/remote'
import { isRecord, num, str, type JsonObject } from '../cache/json'
import { KINDS, type NoteableKind } from '../cache/kinds'
import type { Cursor, SyncState } from './state'

export interface RunOptions {
  readonly accountId: string
  readonly cache: Cache
  readonly state: SyncState
  readonly client: ApiClient
  /** The signed-in user's id on the instance (null when not known): whose review work is fetched ahead. */
  readonly userId: number | null
  readonly signal: AbortSignal
  /** Also compare id sets with the server and drop what it deleted. */
  readonly reconcile: boolean
  /** Page size of list requests; default 100 (the API's maximum). */
  readonly perPage?: number
  /** Pages of a list written in one transaction; default PAGES_PER_COMMIT. */
  readonly pagesPerCommit?: number
  readonly onProgress?: (progress: SyncProgress) => void
}

export interface RunStats {
  itemsSynced: number
  itemsRemoved: number
  requests: number
}

interface Scope {
  readonly kind: 'project' | 'group'
  readonly id: number
  readonly name: string
  readonly json: JsonObject
}

/** The list endpoints a run walks, per scope. */
const PROJECT_LISTS = [
  { resource: 'issues', kind: 'issue', path: (id: number) => `/projects/${id}/issues`, feature: 'issues_enabled' },
  {
    resource: 'merge_requests',
    kind: 'merge_request',
    path: (id: number) => `/projects/${id}/merge_requests`,
    feature: 'merge_requests_enabled',
  },
] as const

/**
 * An item's discussions. Epics' notes and discussions name the epic by its id, not its iid
 * (GitLab's `:epic_id` there, unlike every other epic endpoint).
 */
export const NOTEABLE_PATHS: Readonly<
  Record<NoteableKind, (parent: number, item: { readonly id: number; readonly iid: number }) => string>
> = {
  issue: (p, item) => `/projects/${p}/issues/${item.iid}/discussions`,
  merge_request: (p, item) => `/projects/${p}/merge_requests/${item.iid}/discussions`,
  epic: (g, item) => `/groups/${g}/epics/${item.id}/discussions`,
}

/**
 * How long a scope's full milestone list stays good between syncs (reconciling always reads it
 * again). In between, the milestones embedded in the items a sync brings keep the ones in use
 * current, so a quiet sync does not read every project's milestones each time.
 */
export const MILESTONES_REFRESH_MS = 10 * 60_000

/** Open merge requests per project whose changes one run saves at most (newest first; the rest at the next run). */
export const MERGE_REQUEST_CHANGES_PER_RUN = 50

/**
 * Changed issues per project whose links one run saves at most (newest first). The rest are not
 * owed to a later run: their links are read when the issue is opened online, and saved at
 * their next change (a link made or removed changes both its issues). A project's first sync
 * saves none: every issue is new then, and a list of links per issue would cost it more requests
 * than its pages (the initial sync is meant to take what fetching its pages takes).
 */
export const ISSUE_LINKS_PER_RUN = 50

/**
 * Pages of a list written together, in one transaction with the cursor after the last of them
 * (a list's last page, and the pages in hand when a run stops, are written at once). A commit
 * writes every database page its rows touched to the WAL: one a list page, the index leaves
 * and the half-filled last table page were written again by each, and the bench's first sync
 * wrote 16,384 WAL frames for a 8,254-page database; four a commit write 11,364.
 */
export const PAGES_PER_COMMIT = 4

/** Issue link lists a run reads at once (keepIssueLinks). */
const LINK_READS_IN_FLIGHT = 4

/**
 * Projects and groups a run syncs at once. One scope alone leaves the server idle whenever the
 * run waits on it with nothing else asked (a list's first page, the milestone and label lists,
 * the search index at a list's end), and the run idle while those answers travel; with two,
 * the other scope's next request is at the server while one writes, and its answer is ready
 * when the write ends.
 */
const SCOPES_AT_ONCE = 2

/**
 * Runs `task` on each of `items` in order, with at most `limit` running at once. The first
 * failure stops new tasks from starting, is told to `onFailure` at once (to stop those
 * running), and is thrown once the running ones have settled: nothing of them is still at
 * work when this ends.
 */
async function eachConcurrently<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
  onFailure: (error: unknown) => void = () => undefined,
): Promise<void> {
  let next = 0
  const failures: unknown[] = []
  const worker = async (): Promise<void> => {
    while (failures.length === 0 && next < items.length) {
      const item = items[next++]
      try {
        await task(item)
      } catch (error) {
        if (failures.push(error) === 1) onFailure(error)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  if (failures.length > 0) throw failures[0]
}

/**
 * Resolves once the requests just started are on their way. The API client's steps up to the
 * socket (gate, credentials, fetch's own) are promise callbacks: without yielding, a request
 * started before a synchronous write would leave only after it, and the write would hide nothing.
 */
function requestsDispatched(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** The cross-project lists of issues and merge requests (`scope=all`), one request for every project at once. */
const CROSS_PROJECT_LISTS = [
  { resource: 'issues', kind: 'issue', path: '/issues', feature: 'issues_enabled' },
  { resource: 'merge_requests', kind: 'merge_request', path: '/merge_requests', feature: 'merge_requests_enabled' },
] as const

/** Where one pass of an incremental list writes: which projects' or group's cursors it advances, and which items it keeps. */
interface ListTarget {
  /** The scope whose progress the list reports (null for a cross-project list). */
  readonly owner: Scope | null
  readonly resource: string
  readonly kind: NoteableKind
  readonly path: string
  readonly extra: Query
  /** The scopes whose cursor of `resource` the list stands for. */
  readonly scopes: readonly { readonly kind: 'project' | 'group'; readonly id: number }[]
  /** Makes an item read as its scope's own list gives it. */
  readonly normalize?: (item: JsonObject) => JsonObject
}

/**
 * An item of a cross-project list as its project's list gives it: GitLab makes
 * `references.relative` relative to where it is listed (`group/project#12` across projects,
 * `#12` in its own), and the cache keeps what the project's list says, so that switching
 * between the two kinds of list does not count every item as changed.
 */
function asInItsProject(item: JsonObject): JsonObject {
  const refs = item.references
  if (!isRecord(refs) || typeof refs.short !== 'string' || refs.relative === refs.short) return item
  return { ...item, references: { ...refs, relative: refs.short } }
}

/** 403 and 404 on a list: the feature is off, or the instance has no such endpoint (epics on the free tier). */
function refused(error: unknown): boolean {
  return error instanceof ForbiddenError || error instanceof NotFoundError
}

/** Where a list that stands for several cursors starts: the oldest, with the ids applied at that instant by any of them. */
function oldestCursor(cursors: readonly Cursor[]): Cursor {
  if (cursors.some((c) => c.updatedAfter === null))
    return { updatedAfter: null, seenIds: [], unsupported: cursors.every((c) => c.unsupported) }
  const oldest = cursors.reduce((a, b) => ((b.updatedAfter as string) < (a.updatedAfter as string) ? b : a))
  const seenIds = new Set(cursors.filter((c) => c.updatedAfter === oldest.updatedAfter).flatMap((c) => c.seenIds))
  return { updatedAfter: oldest.updatedAfter, seenIds: [...seenIds], unsupported: cursors.every((c) => c.unsupported) }
}

/** The cursor after a page: its newest `updated_at`, and the ids seen at exactly that instant. */
function advance(cursor: Cursor, items: readonly JsonObject[]): Cursor {
  let newest = cursor.updatedAfter
  let newestIds = new Set(cursor.seenIds)
  for (const item of items) {
    const at = str(item, 'updated_at')
    const id = num(item, 'id')
    if (at === null || id === null) continue
    if (newest === null || at > newest) {
      newest = at
      newestIds = new Set([id])
    } else if (at === newest) newestIds.add(id)
  }
  return { updatedAfter: newest, seenIds: [...newestIds], unsupported: false }
}

/**
 * One sync of one account: resolve the scope, then per project and group (two at a time) pull what changed
 * since each list's cursor (order_by=updated_at&sort=asc&updated_after=cursor), committing
 * each page's rows and the advanced cursor in one transaction, so an interrupted run resumes
 * where it stopped. Then notes of changed items, to-dos, and (when asked) reconciliation.
 * Throws what the API client throws (NetworkError when the instance goes away, the signal's
 * reason when cancelled); everything committed so far stays.
 */
export class SyncRun {
  readonly stats: RunStats = { itemsSynced: 0, itemsRemoved: 0, requests: 0 }
  private readonly perPage: number
  private readonly pagesPerCommit: number
  /** What each scope syncing is at (null: the run's own steps, scope and to-dos), for progress events. */
  private readonly phases = new Map<Scope | null, SyncPhase>()
  /** Stops the other scopes' work when one fails (eachConcurrently's onFailure). */
  private readonly halt = new AbortController()
  /** The caller's signal or the halt: what every request of the run listens to. */
  private readonly signal: AbortSignal
  private scopesDone = 0
  private scopesTotal = 0

  /** Saves answers for offline reading in the URL cache (`api:get`): merge requests' changes, issues' links. */
  private readonly saved: CachedGet
  /** Issues this run wrote as new or changed, per project: whose links are saved again. */
  private readonly changedIssues = new Map<number, Map<number, string>>()

  /** Whether lists have finished since the last request with their search documents not yet indexed (syncList). */
  private indexOwed = false

  constructor(private readonly o: RunOptions) {
    this.perPage = o.perPage ?? 100
    this.pagesPerCommit = o.pagesPerCommit ?? PAGES_PER_COMMIT
    this.saved = new CachedGet(o.cache)
    this.signal = AbortSignal.any([o.signal, this.halt.signal])
  }

  async run(): Promise<void> {
    try {
      await this.runScopes()
    } finally {
      // What the last lists wrote (or a failed run's lists, up to where they stopped).
      this.indexOwed = false
      this.o.cache.indexSearchDocs()
    }
  }

  private async runScopes(): Promise<void> {
    const { projects, groups } = await this.resolveScope()
    this.scopesTotal = projects.length + groups.length
    this.progress(null)
    // One request per list for every project already synced, when the instance shows no others.
    const across = (await this.crossProjectAnswersAll(projects))
      ? await this.syncAcrossProjects(projects)
      : new Set<string>()
    await eachConcurrently(
      [...projects, ...groups],
      SCOPES_AT_ONCE,
      async (scope) => {
        if (scope.kind === 'project') await this.syncProject(scope, across)
        else await this.syncGroup(scope)
        this.phases.delete(scope)
        this.scopesDone++
      },
      (error) => this.halt.abort(error),
    )
    await this.syncTodos()
  }

  /** A project's issues and merge requests (unless `across` covered them), milestones, labels, notes and saved answers. */
  private async syncProject(project: Scope, across: ReadonlySet<string>): Promise<void> {
    const firstIssueSync = !this.o.state.hasCursor(this.o.accountId, 'issues', 'project', project.id)
    for (const list of PROJECT_LISTS) {
      if (project.json[list.feature] === false || across.has(`${list.resource}:${project.id}`)) continue
      await this.syncList({
        owner: project,
        resource: list.resource,
        kind: list.kind,
        path: list.path(project.id),
        extra: { with_labels_details: true },
        scopes: [{ kind: 'project', id: project.id }],
      })
    }
    await this.syncMilestones(project)
    await this.syncLabels(project)
    await this.syncNotes(project)
    if (project.json.merge_requests_enabled !== false) await this.keepMergeRequestChanges(project)
    if (firstIssueSync) this.changedIssues.delete(project.id)
    else if (project.json.issues_enabled !== false) await this.keepIssueLinks(project)
    if (this.o.reconcile) await this.reconcileProject(project)
  }

  /** A group's epics, milestones, labels and epic notes. */
  private async syncGroup(group: Scope): Promise<void> {
    await this.syncList({
      owner: group,
      resource: 'epics',
      kind: 'epic',
      path: `/groups/${group.id}/epics`,
      extra: { with_labels_details: true, include_descendant_groups: false },
      scopes: [{ kind: 'group', id: group.id }],
    })
    await this.syncMilestones(group)
    await this.syncLabels(group)
    await this.syncNotes(group)
    if (this.o.reconcile) await this.reconcileEpics(group)
  }

  /**
   * Whether `/issues?scope=all` and `/merge_requests?scope=all` list the synced projects' items
   * and little else: when the user can see no project besides those synced (the X-Total of
   * `/projects`, archived included, is their number). On gitlab.com, where every public project
   * is visible, it never is; on a team's own instance it usually is. Items of other projects
   * are left out either way, so this decides the cost, never what is synced.
   */
  private async crossProjectAnswersAll(projects: readonly Scope[]): Promise<boolean> {
    // Only projects synced before take part (a first sync has none): no need to ask then.
    if (CROSS_PROJECT_LISTS.every((list) => this.acrossMembers(projects, list).length < 2)) return false
    const visible = (await this.getPage('/projects', { per_page: 1, simple: true })).total
    return visible !== null && visible <= projects.length
  }

  /** The projects a cross-project list stands for: those whose own list of it was synced before (and answered). */
  private acrossMembers(projects: readonly Scope[], list: (typeof CROSS_PROJECT_LISTS)[number]): Scope[] {
    const { accountId, state } = this.o
    return projects.filter(
      (p) =>
        p.json[list.feature] !== false &&
        state.hasCursor(accountId, list.resource, 'project', p.id) &&
        !state.cursor(accountId, list.resource, 'project', p.id).unsupported,
    )
  }

  /**
   * The incremental issue and merge request lists of every synced project that has been synced
   * before, as one cross-project list each, from the oldest of their cursors; each page
   * advances every one of those projects' cursors. Projects new to the scope get their own
   * first sync (run's loop). Returns `resource:projectId` of the lists it covered.
   */
  private async syncAcrossProjects(projects: readonly Scope[]): Promise<Set<string>> {
    const covered = new Set<string>()
    for (const list of CROSS_PROJECT_LISTS) {
      const members = this.acrossMembers(projects, list)
      if (members.length < 2) continue
      await this.syncList({
        owner: null,
        resource: list.resource,
        kind: list.kind,
        path: list.path,
        extra: { with_labels_details: true, non_archived: false },
        scopes: members.map((p) => ({ kind: 'project', id: p.id })),
        normalize: asInItsProject,
      })
      for (const p of members) covered.add(`${list.resource}:${p.id}`)
    }
    return covered
  }

  // --- scope ------------------------------------------------------------------------------

  private async resolveScope(): Promise<{ projects: Scope[]; groups: Scope[] }> {
    this.setPhase('scope', null)
    const { accountId, cache } = this.o
    const scope: SyncScope = this.o.state.scope(accountId)
    let projects: JsonObject[]
    let groups: JsonObject[]
    if (scope.mode === 'memberships') {
      projects = await this.all('/projects', { membership: true, order_by: 'id', sort: 'asc' })
      groups = await this.all('/groups', { min_access_level: 10, order_by: 'id', sort: 'asc' })
    } else {
      projects = await this.each(scope.project_ids, (id) => `/projects/${id}`)
      groups = await this.each(scope.group_ids, (id) => `/groups/${id}`)
    }
    const before = {
      project: cache.db
        .prepare('SELECT id FROM projects WHERE acct = ? AND synced = 1')
        .pluck()
        .all(cache.acct(accountId)) as number[],
      group: cache.db
        .prepare('SELECT id FROM groups WHERE acct = ? AND synced = 1')
        .pluck()
        .all(cache.acct(accountId)) as number[],
    }
    const projectIds = projects.map((p) => num(p, 'id') as number)
    const groupIds = groups.map((g) => num(g, 'id') as number)
    cache.transaction(() => {
      cache.upsert(accountId, 'project', projects)
      cache.upsert(accountId, 'group', groups)
      cache.setSynced(accountId, 'project', projectIds)
      cache.setSynced(accountId, 'group', groupIds)
      // What left the scope (membership ended, project deleted, user deselected it) leaves the cache.
      for (const id of before.project.filter((id) => !projectIds.includes(id))) cache.purgeProject(accountId, id)
      for (const id of before.group.filter((id) => !groupIds.includes(id))) cache.purgeGroup(accountId, id)
    })
    return {
      projects: projects.map((p) => ({
        kind: 'project',
        id: num(p, 'id') as number,
        name: str(p, 'path_with_namespace') ?? '',
        json: p,
      })),
      groups: groups.map((g) => ({
        kind: 'group',
        id: num(g, 'id') as number,
        name: str(g, 'full_path') ?? '',
        json: g,
      })),
    }
  }

  /** Each chosen project or group by id; those the server no longer shows are left out. */
  private async each(ids: readonly number[], path: (id: number) => string): Promise<JsonObject[]> {
    const out: JsonObject[] = []
    for (const id of ids) {
      try {
        out.push(await this.get<JsonObject>(path(id)))
      } catch (error) {
        if (!refused(error)) throw error
      }
    }
    return out
  }

  // --- incremental lists ------------------------------------------------------------------

  /**
   * Pulls one list from its cursor (the oldest of its scopes' cursors). Each request asks again
   * from the newest `updated_at` applied (not for the next offset), so items updated while the
   * run pages cannot shift out of view; the ids already applied at exactly that instant are
   * skipped, and a page holding nothing past them moves on by page number. Only items of the
   * list's scopes are kept (a cross-project list may hold others).
   */
  private async syncList(list: ListTarget): Promise<void> {
    try {
      await this.pageThrough(list)
    } finally {
      // The pages' search documents (writePages defers them) are indexed in one statement once
      // the next request is on its way, so the server answers it meanwhile (see requestSent).
      this.indexOwed = true
    }
  }

  /** syncList's pages, written a few at a time (pagesPerCommit) while the next one travels. */
  private async pageThrough(list: ListTarget): Promise<void> {
    const { accountId, cache, state } = this.o
    const { resource, kind, path, extra, scopes } = list
    this.setPhase(resource as SyncPhase, list.owner)
    let cursor = oldestCursor(scopes.map((sc) => state.cursor(accountId, resource, sc.kind, sc.id)))
    if (cursor.unsupported && !this.o.reconcile) return
    const parentKey = kind === 'epic' ? 'group_id' : 'project_id'
    const inScope = new Set(scopes.map((sc) => sc.id))
    let page = 1
    const fetchPage = (
      c: Cursor,
      p: number,
    ): Promise<{ items: JsonObject[]; nextPage: number | null; total: number | null }> =>
      this.getPage(path, {
        ...extra,
        order_by: 'updated_at',
        sort: 'asc',
        updated_after: c.updatedAfter ?? undefined,
        per_page: this.perPage,
        page: p,
        scope: kind === 'epic' ? undefined : 'all',
        state: kind === 'epic' ? undefined : 'all',
      })
    // Pages are written, with the cursor after the last of them, while the next one travels:
    // the store hides behind the server's work instead of adding to it (see writePages).
    let held: JsonObject[] = []
    let heldPages = 0
    let heldCursor = cursor
    const writeHeld = (): void => {
      if (heldPages === 0) return
      this.writePages(list, held, heldCursor)
      held = []
      heldPages = 0
    }
    let pending = fetchPage(cursor, page)
    for (;;) {
      let result
      try {
        result = await pending
      } catch (error) {
        // The pages in hand are kept: the next run goes on after them.
        writeHeld()
        if (!refused(error)) throw error
        cache.transaction(() => {
          for (const sc of scopes)
            state.setCursor(accountId, resource, sc.kind, sc.id, {
              ...state.cursor(accountId, resource, sc.kind, sc.id),
              unsupported: true,
            })
        })
        return
      }
      const seen = new Set(cursor.seenIds)
      const fresh = result.items
        .filter(
          (i) =>
            !(str(i, 'updated_at') === cursor.updatedAfter && seen.has(num(i, 'id') as number)) &&
            inScope.has(num(i, parentKey) as number),
        )
        .map(list.normalize ?? ((i) => i))
      const next = advance(cursor, result.items)
      const more = result.items.length >= this.perPage && result.nextPage !== null
      const nextPageNumber = next.updatedAfter !== cursor.updatedAfter ? 1 : page + 1
      // The next request depends only on the new cursor: send it now, and write while it travels.
      if (more) {
        pending = fetchPage(next, nextPageNumber)
        // Stopped by the network or a cancel meanwhile: the failure surfaces at the next await,
        // which writes the pages held (or not at all when a write throws first).
        pending.catch(() => undefined)
        await requestsDispatched()
      }
      held = held.concat(fresh)
      heldPages++
      heldCursor = next
      if (!more || heldPages >= this.pagesPerCommit) writeHeld()
      this.progress(list.owner)
      if (!more) return
      page = nextPageNumber
      cursor = next
    }
  }

  /**
   * Pages of a list (their items, in order) and the cursor after the last of them, in one
   * transaction: a crash leaves every commit before it with its cursor, and the next run goes
   * on from there (fetching again only the pages that were in hand). The pages' search
   * documents are indexed at the end of the list (syncList), in one statement: indexed at each
   * commit, each added a segment to the full-text index and its merges rewrote them (~10% of
   * the store's time). A crash in between leaves them pending, and the next open indexes them.
   */
  private writePages(list: ListTarget, items: readonly JsonObject[], next: Cursor): void {
    const { accountId, cache, state } = this.o
    const { resource, kind, scopes } = list
    const parentKey = kind === 'epic' ? 'group_id' : 'project_id'
    cache.transaction(
      () => {
        const written = cache.upsert(accountId, kind, items)
        for (const sc of scopes)
          this.mergeEmbeddedLabels(
            sc.kind,
            sc.id,
            scopes.length === 1 ? items : items.filter((i) => num(i, parentKey) === sc.id),
          )
        this.mergeEmbeddedMilestones(items)
        // Epics carry no user_notes_count (GitLab's epic entity has none): a changed epic's discussions are always read.
        const commented = (json: JsonObject): boolean =>
          kind === 'epic' ? true : (num(json, 'user_notes_count') ?? 0) > 0
        const stale = written.changed
          .filter((c) => commented(c.json) || (c.previousUpdatedAt !== null && this.hasNotes(kind, c.id)))
          .map((c) => c.id)
        cache.markNotesStale(accountId, kind, stale)
        if (kind === 'issue') this.noteChangedIssues(written.changed.map((c) => c.json))
        // A scope's cursor only moves forward (a cross-project list starts at the oldest of them).
        for (const sc of scopes) {
          const own = state.cursor(accountId, resource, sc.kind, sc.id)
          if (own.updatedAfter === null || next.updatedAfter === null || next.updatedAfter >= own.updatedAfter)
            state.setCursor(accountId, resource, sc.kind, sc.id, next)
        }
        this.stats.itemsSynced += written.changed.length
      },
      { deferSearchIndex: true },
    )
  }

  /** Remembers the issues a page changed, for keepIssueLinks (provisional rows of the outbox have no links). */
  private noteChangedIssues(issues: readonly JsonObject[]): void {
    for (const issue of issues) {
      const projectId = num(issue, 'project_id')
      const iid = num(issue, 'iid')
      const updatedAt = str(issue, 'updated_at')
      if (projectId === null || iid === null || iid <= 0 || updatedAt === null) continue
      const byIid = this.changedIssues.get(projectId) ?? new Map<number, string>()
      byIid.set(iid, updatedAt)
      this.changedIssues.set(projectId, byIid)
    }
  }

  private hasNotes(kind: NoteableKind, id: number): boolean {
    const { cache, accountId } = this.o
    return (
      cache
        .stmt('SELECT 1 FROM notes WHERE acct = ? AND noteable_kind = ? AND noteable_id = ? LIMIT 1')
        .get(cache.acct(accountId), kind, id) !== undefined
    )
  }

  /** Label objects that came with the items (`with_labels_details`) keep the scope's labels fresh between full label syncs. */
  private mergeEmbeddedLabels(scopeKind: 'project' | 'group', scopeId: number, items: readonly JsonObject[]): void {
    const labels = new Map<number, JsonObject>()
    for (const item of items) {
      for (const l of Array.isArray(item.labels) ? item.labels : [])
        if (isRecord(l) && typeof l.id === 'number') labels.set(l.id, l)
    }
    this.o.cache.mergeLabels(this.o.accountId, scopeKind, scopeId, [...labels.values()])
  }

  /** A scope's full milestone list: on its first sync, when reconciling, and when the last one is older than MILESTONES_REFRESH_MS. */
  private async syncMilestones(scope: Scope): Promise<void> {
    const { accountId, cache, state } = this.o
    const { kind: scopeKind, id: scopeId } = scope
    const last = state.cursor(accountId, 'milestones', scopeKind, scopeId).updatedAfter
    if (!this.o.reconcile && last !== null && Date.now() - Date.parse(last) < MILESTONES_REFRESH_MS) return
    this.setPhase('milestones', scope)
    const path = scopeKind === 'project' ? `/projects/${scopeId}/milestones` : `/groups/${scopeId}/milestones`
    const fetchedAt = new Date().toISOString()
    let items: JsonObject[]
    try {
      items = await this.all(path, {})
    } catch (error) {
      if (refused(error)) return
      throw error
    }
    cache.transaction(() => {
      cache.replaceSet(
        accountId,
        'milestone',
        scopeKind === 'project' ? { projectId: scopeId } : { groupId: scopeId },
        items,
      )
      state.setCursor(accountId, 'milestones', scopeKind, scopeId, {
        updatedAfter: fetchedAt,
        seenIds: [],
        unsupported: false,
      })
    })
  }

  /** Milestones that came with the items, newer than the cached ones: what changed in use between full lists. */
  private mergeEmbeddedMilestones(items: readonly JsonObject[]): void {
    const { accountId, cache } = this.o
    const embedded = new Map<number, JsonObject>()
    for (const item of items) {
      const m = item.milestone
      if (isRecord(m) && typeof m.id === 'number' && typeof m.updated_at === 'string') embedded.set(m.id, m)
    }
    if (embedded.size === 0) return
    const cached = new Map(
      (
        cache
          .stmt('SELECT id, updated_at FROM milestones WHERE acct = ? AND id IN (SELECT value FROM json_each(?))')
          .all(cache.acct(accountId), JSON.stringify([...embedded.keys()])) as {
          id: number
          updated_at: string | null
        }[]
      ).map((r) => [r.id, r.updated_at]),
    )
    const newer = [...embedded.values()].filter((m) => {
      const at = cached.get(m.id as number)
      return at === undefined || at === null || (m.updated_at as string) > at
    })
    if (newer.length > 0) cache.upsert(accountId, 'milestone', newer)
  }

  /** Full label lists on the first sync of a scope and when reconciling; labels embedded in items keep them current in between. */
  private async syncLabels(scope: Scope): Promise<void> {
    const { accountId, cache, state } = this.o
    const { kind: scopeKind, id: scopeId } = scope
    if (!this.o.reconcile && state.hasCursor(accountId, 'labels', scopeKind, scopeId)) return
    this.setPhase('labels', scope)
    const path = scopeKind === 'project' ? `/projects/${scopeId}/labels` : `/groups/${scopeId}/labels`
    let labels: JsonObject[]
    try {
      labels = await this.all(path, { include_ancestor_groups: true })
    } catch (error) {
      if (refused(error)) return
      throw error
    }
    cache.transaction(() => {
      cache.replaceLabels(accountId, scopeKind, scopeId, labels)
      state.setCursor(accountId, 'labels', scopeKind, scopeId, {
        updatedAfter: new Date().toISOString(),
        seenIds: [],
        unsupported: false,
      })
    })
  }

  /** Discussions of the items marked `notes_stale` in this scope; each item's notes and its mark change in one transaction. */
  private async syncNotes(scope: Scope): Promise<void> {
    const { accountId, cache } = this.o
    const { kind: scopeKind, id: scopeId } = scope
    const acct = cache.acct(accountId)
    const kinds: NoteableKind[] = scopeKind === 'project' ? ['issue', 'merge_request'] : ['epic']
    for (const kind of kinds) {
      const column = kind === 'epic' ? 'group_id' : 'project_id'
      // `+id`: ordered by the primary key, SQLite would read every row of the account to find the marked few.
      const stale = cache.db
        .prepare(
          `SELECT id, iid FROM ${KINDS[kind].table} WHERE acct = ? AND ${column} = ? AND notes_stale = 1 ORDER BY +id`,
        )
        .all(acct, scopeId) as { id: number; iid: number }[]
      if (stale.length > 0) this.setPhase('notes', scope)
      for (const item of stale) {
        let discussions: JsonObject[]
        try {
          discussions = await this.all(NOTEABLE_PATHS[kind](scopeId, item), {})
        } catch (error) {
          if (!refused(error)) throw error
          discussions = []
        }
        cache.replaceDiscussions(accountId, kind, item.id, discussions)
        this.progress(scope)
      }
    }
  }

  /**
   * Open merge requests waiting on the user (as reviewer or assignee) keep their changes
   * readable offline: `…/changes` is saved in the URL cache (what `repos:merge-request-changes`
   * reads) whenever the saved copy is older than the merge request's last update — a push moves
   * it — so a quiet sync asks for none. Others' merge requests are not fetched ahead: a diff is
   * one of the costliest answers a forge computes, and a project can hold hundreds open.
   */
  private async keepMergeRequestChanges(project: Scope): Promise<void> {
    const { accountId, cache, client, userId } = this.o
    const { signal } = this
    const projectId = project.id
    if (userId === null) return
    const open = cache.db
      .prepare(
        `SELECT iid, updated_at FROM merge_requests mr
         WHERE acct = ? AND project_id = ? AND state = 'opened' AND iid > 0 AND EXISTS (
           SELECT 1 FROM item_users u WHERE u.acct = mr.acct AND u.kind = 'merge_request' AND u.item_id = mr.id
             AND u.user_id = ? AND u.role IN ('assignee', 'reviewer'))
         ORDER BY updated_at DESC`,
      )
      .all(cache.acct(accountId), projectId, userId) as { iid: number; updated_at: string }[]
    const outdated = open.filter((mr) => {
      const saved = this.saved.savedAt(accountId, client, mergeRequestChangesPath(projectId, mr.iid))
      return saved === null || saved < mr.updated_at
    })
    for (const mr of outdated.slice(0, MERGE_REQUEST_CHANGES_PER_RUN)) {
      signal.throwIfAborted()
      this.setPhase('changes', project)
      this.stats.requests++
      try {
        await this.saved.get(accountId, client, mergeRequestChangesPath(projectId, mr.iid), undefined, {
          online: true,
          signal,
        })
      } catch (error) {
        if (!refused(error)) throw error
      }
      this.progress(project)
    }
  }

  /**
   * The links of the issues this run found changed are saved in the URL cache (what the issue
   * page reads through `api:get`, and what the list's "blocked" marker comes from), unless the
   * saved copy is newer than the change; with its ETag, an unchanged list costs a 304. A quiet
   * sync changes no issue and so asks for none.
   */
  private async keepIssueLinks(project: Scope): Promise<void> {
    const { accountId, client } = this.o
    const { signal } = this
    const projectId = project.id
    const changed = [...(this.changedIssues.get(projectId) ?? [])].map(([iid, updatedAt]) => ({ iid, updatedAt }))
    this.changedIssues.delete(projectId)
    // Newest first, looked up only until enough are found: a first sync changes every issue.
    const outdated: { iid: number; updatedAt: string }[] = []
    for (const issue of changed.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))) {
      if (outdated.length === ISSUE_LINKS_PER_RUN) break
      const savedAt = this.saved.savedAt(accountId, client, issueLinksPath(projectId, issue.iid))
      if (savedAt === null || savedAt < issue.updatedAt) outdated.push(issue)
    }
    // Each answer is small and saved on its own: a few in flight at once hide their round trips.
    await eachConcurrently(outdated, LINK_READS_IN_FLIGHT, async (issue) => {
      signal.throwIfAborted()
      this.setPhase('links', project)
      this.stats.requests++
      try {
        await this.saved.get(accountId, client, issueLinksPath(projectId, issue.iid), undefined, {
          online: true,
          signal,
        })
      } catch (error) {
        if (!refused(error)) throw error
      }
      this.progress(project)
    })
  }

  private async syncTodos(): Promise<void> {
    this.setPhase('todos', null)
    const todos = await this.all('/todos', { state: 'pending' })
    this.o.cache.replaceSet(this.o.accountId, 'todo', 'account', todos)
  }

  // --- reconciliation ---------------------------------------------------------------------

  private async reconcileProject(project: Scope): Promise<void> {
    for (const list of PROJECT_LISTS) {
      if (project.json[list.feature] === false) continue
      await this.reconcile(project, list.resource, list.kind, list.path(project.id), {
        scope: 'all',
        state: 'all',
      })
    }
  }

  private async reconcileEpics(group: Scope): Promise<void> {
    if (this.o.state.cursor(this.o.accountId, 'epics', 'group', group.id).unsupported) return
    await this.reconcile(group, 'epics', 'epic', `/groups/${group.id}/epics`, {
      include_descendant_groups: false,
    })
  }

  /**
   * Drops what the server deleted, cheaply: compare the server's count (X-Total of a one-item
   * page) with ours; when ours is larger, count again per chunk of 100 cached iids
   * (`iids[]=…`), and list only the chunks that came up short. When ours is smaller, an item
   * was missed: the list's cursor is reset so the next run fetches it again.
   */
  private async reconcile(
    scope: Scope,
    resource: string,
    kind: NoteableKind,
    path: string,
    extra: Query,
  ): Promise<void> {
    const { accountId, cache, state } = this.o
    const { kind: scopeKind, id: scopeId } = scope
    this.setPhase('reconcile', scope)
    const acct = cache.acct(accountId)
    const column = kind === 'epic' ? 'group_id' : 'project_id'
    // Provisional rows of the outbox (negative ids) are not the server's to judge.
    const local = cache.db
      .prepare(`SELECT id, iid FROM ${KINDS[kind].table} WHERE acct = ? AND ${column} = ? AND id > 0 ORDER BY iid`)
      .all(acct, scopeId) as { id: number; iid: number }[]
    let serverTotal: number | null
    try {
      serverTotal = (await this.getPage(path, { ...extra, per_page: 1 })).total
    } catch (error) {
      if (refused(error)) return
      throw error
    }
    if (serverTotal === null) serverTotal = -1
    if (serverTotal === local.length) return
    if (serverTotal > local.length) {
      state.clearCursor(accountId, resource, scopeKind, scopeId)
      return
    }
    let excess = serverTotal < 0 ? Number.POSITIVE_INFINITY : local.length - serverTotal
    for (let i = 0; i < local.length && excess > 0; i += 100) {
      const chunk = local.slice(i, i + 100)
      const iids = chunk.map((r) => r.iid)
      const count = (await this.getPage(path, { ...extra, iids, per_page: 1 })).total
      if (count !== null && count === chunk.length) continue
      const present = new Set(
        (await this.getPage(path, { ...extra, iids, per_page: 100 })).items.map((it) => num(it, 'id')),
      )
      const gone = chunk.filter((r) => !present.has(r.id)).map((r) => r.id)
      cache.remove(accountId, kind, gone)
      this.stats.itemsRemoved += gone.length
      excess -= gone.length
    }
  }

  // --- requests -----------------------------------------------------------------------------

  private async get<T>(path: string, query?: Query): Promise<T> {
    this.signal.throwIfAborted()
    this.stats.requests++
    const answer = this.o.client.get<T>(path, query, { signal: this.signal })
    this.requestSent()
    return answer
  }

  private async getPage(
    path: string,
    query: Query,
  ): Promise<{ items: JsonObject[]; nextPage: number | null; total: number | null }> {
    this.signal.throwIfAborted()
    this.stats.requests++
    const answer = this.o.client.getPage<JsonObject>(path, query, { signal: this.signal })
    this.requestSent()
    return answer
  }

  /**
   * Indexes the search documents of the lists finished since the last request, once this
   * request is on its way: indexed before it (at the end of each list), the server had nothing
   * to do meanwhile. A failure stops the run as a failed write would; run() indexes what is left.
   */
  private requestSent(): void {
    if (!this.indexOwed) return
    this.indexOwed = false
    void requestsDispatched()
      .then(() => this.o.cache.indexSearchDocs())
      .catch((error: unknown) => this.halt.abort(error))
  }

  /** Every page of a small list (projects, groups, milestones, labels, to-dos, discussions). */
  private async all(path: string, query: Query): Promise<JsonObject[]> {
    const out: JsonObject[] = []
    for (let page = 1; ; page++) {
      const result = await this.getPage(path, { ...query, per_page: this.perPage, page })
      out.push(...result.items)
      if (result.nextPage === null || result.items.length < this.perPage) return out
    }
  }

  private setPhase(phase: SyncPhase, scope: Scope | null): void {
    if (this.phases.get(scope) === phase) return
    this.phases.set(scope, phase)
    this.progress(scope)
  }

  /** Where the run is, told from `scope`'s side (two sync at once: each event names its own). */
  private progress(scope: Scope | null): void {
    this.o.onProgress?.({
      accountId: this.o.accountId,
      phase: this.phases.get(scope) ?? 'scope',
      scope: scope === null ? null : { kind: scope.kind, id: scope.id, name: scope.name },
      scopesDone: this.scopesDone,
      scopesTotal: this.scopesTotal,
      itemsSynced: this.stats.itemsSynced,
      requests: this.stats.requests,
    })
  }
}
