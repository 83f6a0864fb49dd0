import type { Account } from '../../../shared/ipc/contract'
import {
  todoTopic,
  type AlertList,
  type AlertStatus,
  type AlertStatusFilter,
  type NotifyAccountCounts,
  type NotifyAlert,
  type NotifyAnnouncement,
  type NotifyCounts,
  type NotifySummary,
} from '../../../shared/ipc/notify'
import { topicAnnounces, type NotifyTopic } from '../../../shared/ipc/preferences'
import type { AccessGate } from '../api/access-gate'
import type { ApiClient } from '../api/client'
import type { OnlineState } from '../api/connectivity'
import { isAccountHeld, NetworkError } from '../api/errors'
import type { Cache, CacheChange } from '../cache/cache'
import { num, obj, str, type JsonObject } from '../cache/json'
import type { PreferencesStore } from '../preferences'
import {
  AlertActionError,
  FEED_PAGE,
  LIST_PAGE,
  queryProjects,
  setAlertAssignees,
  statusesFor,
  updateAlertStatus,
  type ProjectAlerts,
} from './alerts'
import { NotifyStore, type ScopeProject } from './store'
import { presentTodo } from './todos'

/** What the watcher needs of the accounts service (core/accounts `Accounts` fits). */
export interface NotifyAccounts {
  list(): Promise<readonly Account[]>
  clientFor(accountId: string): Promise<ApiClient>
  connectivityFor(accountId: string): OnlineState
  accessFor(accountId: string): AccessGate
}

export interface NotifyServiceOptions {
  readonly cache: Cache
  readonly accounts: NotifyAccounts
  readonly preferences: PreferencesStore
  readonly onChange?: (counts: NotifyCounts) => void
  readonly onAnnounce?: (announcement: NotifyAnnouncement) => void
  /**
   * When sync last fetched the account's whole to-do list (ms since the epoch), or null. A check
   * within one interval of it reads the to-dos sync just wrote instead of asking again.
   */
  readonly todosFetchedAt?: (accountId: string) => number | null
  /** Time between checks; default the `notifyIntervalSeconds` preference. */
  readonly intervalMs?: number
  /** Longest wait after repeated failures; default 30 min. */
  readonly maxBackoffMs?: number
  /** Projects per alert feed request to start with; halved while the instance finds the query too complex. Default 5. */
  readonly alertBatch?: number
}

/** More new items than this in one check make one summary announcement, not one each. */
const BURST = 3
const LATEST = 5

interface Watch {
  readonly accountId: string
  /** Checks run on the interval and when the instance comes back (else only on demand). */
  scheduled: boolean
  removed: boolean
  timer: NodeJS.Timeout | null
  unsubscribe: (() => void) | null
  unsubscribeGate: (() => void) | null
  /** A check was due while the account's requests were held: it runs when they are let go. */
  heldBack: boolean
  running: Promise<void> | null
  /** A check asked for while one runs: runs once after it. */
  next: Promise<void> | null
  controller: AbortController
  failures: number
  state: NotifyAccountCounts['state']
  lastError: string | null
  /** This launch holds the account's complete pending to-do list (a check fetched it, or sync did). */
  todosComplete: boolean
  /** When this watcher last fetched the to-dos itself (ms since the epoch). */
  ownFetchAt: number
  alertBatch: number
}

/** Delay before the next check: the interval, doubled per consecutive failure, capped. */
export function nextDelay(intervalMs: number, failures: number, maxBackoffMs: number): number {
  return failures === 0 ? intervalMs : Math.min(maxBackoffMs, intervalMs * 2 ** Math.min(failures, 16))
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * The to-do and alert watcher of every account (DESIGN.md `core/notify`). Per account, a check:
 *
 * - to-dos: `GET /todos?state=pending` (first page, newest first), written into the cache's
 *   to-do table the way sync writes it, unless sync fetched the whole list within the last
 *   interval and after this watcher last did (then its rows are used as they are: no second
 *   request for the same list); "check now" always fetches. Announced are pending to-dos with
 *   ids above the account's mark, except the ones the user made themselves; to-dos that a sync
 *   run writes are announced as soon as it commits them;
 * - alerts: the GraphQL feed over the projects of the account's sync scope (alerts.ts);
 *   announced are triggered alerts with iids above the project's mark.
 * Only topics the account's preferences let through are announced (`mutedTopics`); the marks
 * move all the same, so a topic switched on later does not bring old news.
 *
 * Marks live in the cache database (store.ts), so a restart announces nothing again; an
 * account's first check only sets them and announces a summary count. Checks run on the
 * interval while the account's OnlineState is online, stop while it is offline and run at once
 * when it comes back; failures double the wait (up to `maxBackoffMs`). To-do changes written by
 * sync or the outbox update the counts at once.
 */
export class NotifyService {
  readonly store: NotifyStore
  private readonly watches = new Map<string, Watch>()
  private readonly accountsById = new Map<string, Account>()
  private lastCounts = ''
  private readonly unsubscribe: (() => void)[] = []

  constructor(private readonly options: NotifyServiceOptions) {
    this.store = new NotifyStore(options.cache)
    this.unsubscribe.push(options.cache.onDidChange((change) => this.cacheChanged(change)))
    this.unsubscribe.push(options.preferences.onDidChange(() => this.reschedule()))
  }

  /** Follows an account: counts it, and with `schedule` checks it on the interval and when it comes back online. */
  add(accountId: string, options: { readonly schedule?: boolean } = {}): void {
    const w = this.entry(accountId)
    this.emitCounts()
    if (options.schedule !== true || w.scheduled) return
    w.scheduled = true
    w.state = 'watching'
    w.unsubscribe = this.options.accounts.connectivityFor(accountId).onDidChange((state) => {
      if (w.removed) return
      if (state === 'online') {
        this.kick(w)
      } else {
        this.clearTimer(w)
        w.state = 'offline'
        this.emitCounts()
      }
    })
    const gate = this.options.accounts.accessFor(accountId)
    w.unsubscribeGate = gate.onDidChange(() => {
      if (w.removed || !gate.open || !w.heldBack) return
      w.heldBack = false
      this.kick(w)
    })
    this.kick(w)
  }

  /** Stops following an account (it was removed): no timer, no listener; resolves when its check in flight has stopped. */
  async forget(accountId: string): Promise<void> {
    const w = this.watches.get(accountId)
    if (w === undefined) return
    w.removed = true
    this.clearTimer(w)
    w.unsubscribe?.()
    w.unsubscribeGate?.()
    w.controller.abort(Object.assign(new Error('The account was removed.'), { name: 'AbortError' }))
    this.watches.delete(accountId)
    this.accountsById.delete(accountId)
    await Promise.allSettled([w.running, w.next])
    this.emitCounts()
  }

  async dispose(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off()
    await Promise.all([...this.watches.keys()].map((id) => this.forget(id)))
  }

  /** Checks one account now (or every one); resolves when done. A check already running is followed by one more. */
  async check(accountId?: string): Promise<NotifyCounts> {
    if (accountId !== undefined && !this.watches.has(accountId)) await this.account(accountId)
    const ids = accountId === undefined ? [...this.watches.keys()] : [accountId]
    await Promise.all(ids.map((id) => this.checkOne(this.entry(id), true)))
    return this.counts()
  }

  counts(): NotifyCounts {
    const accounts = [...this.watches.values()].map((w): NotifyAccountCounts => {
      const row = this.store.account(w.accountId)
      const alerts = this.store.alertCounts(w.accountId)
      return {
        accountId: w.accountId,
        pendingTodos: this.store.pendingTodoCount(w.accountId),
        openAlerts: alerts?.open ?? null,
        triggeredAlerts: alerts?.triggered ?? null,
        state: w.state,
        lastError: w.lastError,
        todosCheckedAt: row?.todosCheckedAt ?? null,
        alertsCheckedAt: row?.alertsCheckedAt ?? null,
      }
    })
    return {
      accounts,
      pendingTodos: accounts.reduce((n, a) => n + a.pendingTodos, 0),
      openAlerts: accounts.reduce((n, a) => n + (a.openAlerts ?? 0), 0),
    }
  }

  summary(): NotifySummary {
    const ids = [...this.watches.keys()]
    return {
      ...this.counts(),
      latestTodos: this.store.latestTodos(ids, LATEST).map((t) => presentTodo(t.accountId, t.json)),
      latestAlerts: this.store.openAlerts(ids, ['triggered'], LATEST),
    }
  }

  /**
   * The alerts of the account's synced projects with that status, newest first, from the
   * instance. Offline (or when the request cannot reach it), the open alerts the last check
   * saw, marked stale; resolved and ignored alerts are not kept, so those lists need the instance.
   */
  async listAlerts(accountId: string, status: AlertStatusFilter = 'open'): Promise<AlertList> {
    const account = await this.account(accountId)
    const statuses = statusesFor(status)
    if (this.options.accounts.connectivityFor(accountId).online) {
      try {
        const client = await this.options.accounts.clientFor(accountId)
        const projects = this.store.scopeProjects(accountId)
        const answers = await queryProjects(client, accountId, projects, {
          statuses,
          first: LIST_PAGE,
          counts: false,
          batch: this.entry(accountId).alertBatch,
        })
        const items = answers.flatMap((a) => a.alerts).sort(newestFirst)
        return { items, stale: false, checkedAt: new Date().toISOString() }
      } catch (error) {
        if (!(error instanceof NetworkError)) throw error
      }
    }
    const kept = statuses?.filter((s) => s === 'triggered' || s === 'acknowledged') ?? []
    if (statuses === null || kept.length < statuses.length) {
      throw new AlertActionError(
        'offline',
        `${new URL(account.baseUrl).host} cannot be reached. Only open alerts are kept for offline reading; resolved and ignored ones are read from the instance.`,
      )
    }
    return {
      items: this.store.openAlerts([accountId], kept, 10_000),
      stale: true,
      checkedAt: this.store.account(accountId)?.alertsCheckedAt ?? null,
    }
  }

  /** Online only: `updateAlertStatus`; the alert's project is checked again so the counts follow. */
  async updateAlertStatus(
    accountId: string,
    projectId: number,
    iid: number,
    status: AlertStatus,
  ): Promise<NotifyAlert> {
    return this.alertAction(accountId, projectId, 'Changing an alert’s status', (client, project) =>
      updateAlertStatus(client, accountId, project, iid, status),
    )
  }

  /** Online only: `alertSetAssignees` (replacing them). */
  async assignAlert(
    accountId: string,
    projectId: number,
    iid: number,
    usernames: readonly string[],
  ): Promise<NotifyAlert> {
    return this.alertAction(accountId, projectId, 'Assigning an alert', (client, project) =>
      setAlertAssignees(client, accountId, project, iid, usernames),
    )
  }

  // --- scheduling --------------------------------------------------------------------------------

  private entry(accountId: string): Watch {
    let w = this.watches.get(accountId)
    if (w === undefined) {
      w = {
        accountId,
        scheduled: false,
        removed: false,
        timer: null,
        unsubscribe: null,
        unsubscribeGate: null,
        heldBack: false,
        running: null,
        next: null,
        controller: new AbortController(),
        failures: 0,
        state: 'idle',
        lastError: null,
        todosComplete: false,
        ownFetchAt: 0,
        alertBatch: this.options.alertBatch ?? 5,
      }
      this.watches.set(accountId, w)
    }
    return w
  }

  private intervalMs(): number {
    return this.options.intervalMs ?? this.options.preferences.get().notifyIntervalSeconds * 1000
  }

  private clearTimer(w: Watch): void {
    if (w.timer !== null) clearTimeout(w.timer)
    w.timer = null
  }

  /** A check now, then the next one on the timer. */
  private kick(w: Watch): void {
    this.clearTimer(w)
    void this.checkOne(w).then(() => this.scheduleNext(w))
  }

  private scheduleNext(w: Watch): void {
    if (!w.scheduled || w.removed || w.timer !== null) return
    // Offline, the OnlineState's probe brings the account back and its listener checks at once.
    if (!this.options.accounts.connectivityFor(w.accountId).online) return
    // Held (a sign-in to renew, a Retry-After), the gate letting go checks at once.
    if (!this.options.accounts.accessFor(w.accountId).open) {
      w.heldBack = true
      return
    }
    w.timer = setTimeout(
      () => {
        w.timer = null
        this.kick(w)
      },
      nextDelay(this.intervalMs(), w.failures, this.options.maxBackoffMs ?? 1_800_000),
    )
    w.timer.unref()
  }

  private reschedule(): void {
    for (const w of this.watches.values()) {
      if (w.timer === null) continue
      this.clearTimer(w)
      this.scheduleNext(w)
    }
  }

  /** `fresh`: the user asked ("check now"), so the to-dos are fetched even when sync just did. */
  private checkOne(w: Watch, fresh = false): Promise<void> {
    if (w.running === null) {
      w.running = this.run(w, fresh).finally(() => {
        w.running = null
      })
      return w.running
    }
    w.next ??= w.running.then(() => {
      w.next = null
      return this.checkOne(w, true)
    })
    return w.next
  }

  // --- one check ---------------------------------------------------------------------------------

  private async run(w: Watch, fresh: boolean): Promise<void> {
    if (w.removed) return
    if (!this.options.accounts.connectivityFor(w.accountId).online) {
      w.state = 'offline'
      this.emitCounts()
      return
    }
    if (!this.options.accounts.accessFor(w.accountId).open) return this.holdBack(w)
    const problems: string[] = []
    let offline = false
    let held = false
    for (const step of [() => this.checkTodos(w, fresh), () => this.checkAlerts(w)]) {
      if (w.removed || offline || held) break
      try {
        await step()
      } catch (error) {
        if (w.removed) return
        // The client has told the OnlineState, which probes and flips back; its listener checks again.
        if (error instanceof NetworkError) offline = true
        else if (isAccountHeld(error)) held = true
        else problems.push(message(error))
      }
    }
    if (w.removed) return
    if (held) return this.holdBack(w)
    if (offline) {
      w.state = 'offline'
    } else if (problems.length > 0) {
      w.failures++
      w.state = 'failing'
      w.lastError = problems.join('; ')
      this.store.updateAccount(w.accountId, { lastError: w.lastError })
    } else {
      w.failures = 0
      w.state = w.scheduled ? 'watching' : 'idle'
      if (w.lastError !== null) this.store.updateAccount(w.accountId, { lastError: null })
      w.lastError = null
    }
    this.emitCounts()
  }

  /**
   * The account's requests are held: no check until they are let go (the gate's listener kicks).
   * A sign-in to renew shows as the failure it is; a Retry-After is only a pause.
   */
  private holdBack(w: Watch): void {
    w.heldBack = true
    const signIn = this.options.accounts.accessFor(w.accountId).signInRequired
    if (signIn !== null && w.lastError !== signIn.reason) {
      w.state = 'failing'
      w.lastError = signIn.reason
      this.store.updateAccount(w.accountId, { lastError: w.lastError })
    }
    this.emitCounts()
  }

  private async checkTodos(w: Watch, fresh: boolean): Promise<void> {
    const { accountId } = w
    const syncedAt = this.options.todosFetchedAt?.(accountId) ?? null
    // Sync fetched the whole list since this watcher last did, and within one interval: its
    // rows are as new as a fetch would be (and their change already announced what was new).
    if (!fresh && syncedAt !== null && syncedAt > w.ownFetchAt && Date.now() - syncedAt < this.intervalMs()) {
      w.todosComplete = true
      // Once: the check after this one fetches again unless another sync run comes first.
      w.ownFetchAt = syncedAt
    } else {
      w.ownFetchAt = Date.now()
      const client = await this.options.accounts.clientFor(accountId)
      const page = await client.getPage<JsonObject>(
        '/todos',
        { state: 'pending', per_page: 100 },
        { signal: w.controller.signal },
      )
      if (w.removed) return
      // One page is the whole list for nearly everyone; beyond it the newest page is enough to
      // find what is new, and sync's full list removes the older ones that were done meanwhile.
      if (page.nextPage === null) this.options.cache.replaceSet(accountId, 'todo', 'account', page.items)
      else this.options.cache.upsert(accountId, 'todo', page.items)
      w.todosComplete = true
    }
    this.store.updateAccount(accountId, { todosCheckedAt: new Date().toISOString() })
    await this.announceTodos(w)
  }

  /** Announces pending to-dos above the mark and moves the mark; the first time, only a summary. */
  private async announceTodos(w: Watch): Promise<void> {
    const { accountId } = w
    const mark = this.store.account(accountId)?.lastTodoId ?? null
    if (mark === null) {
      // A mark set from a partial list would let older to-dos through later as "new".
      if (!w.todosComplete && this.options.todosFetchedAt?.(accountId) == null) return
      this.store.updateAccount(accountId, { lastTodoId: this.store.maxTodoId(accountId) })
      const count = this.store.pendingTodoCount(accountId)
      if (count > 0 && this.anyTodoTopic(accountId))
        this.announce(
          await this.summaryAnnouncement(
            accountId,
            'todo',
            count,
            `${count} pending to-do${count === 1 ? '' : 's'}`,
            '/todos',
          ),
        )
      return
    }
    const above = this.store.pendingTodosAfter(accountId, mark)
    if (above.length === 0) return
    this.store.updateAccount(accountId, { lastTodoId: Math.max(mark, ...above.map((t) => num(t, 'id') ?? 0)) })
    const account = await this.account(accountId)
    // To-dos the user added themselves are not news to them; muted topics are not news they want.
    const news = above.filter(
      (t) =>
        num(obj(t, 'author') ?? {}, 'id') !== account.userId &&
        this.announces(accountId, todoTopic(str(t, 'action_name') ?? '')),
    )
    if (news.length > BURST) {
      this.announce(
        await this.summaryAnnouncement(accountId, 'todo', news.length, `${news.length} new to-dos`, '/todos'),
      )
      return
    }
    for (const todo of news) {
      const item = presentTodo(accountId, todo)
      this.announce({
        kind: 'todo',
        accountId,
        key: `todo:${item.id}`,
        title: item.title,
        body: item.body,
        url: item.url,
        route: item.route,
        count: 1,
        topic: todoTopic(str(todo, 'action_name') ?? ''),
      })
    }
  }

  private async checkAlerts(w: Watch): Promise<void> {
    const { accountId } = w
    const projects = this.store.scopeProjects(accountId)
    if (projects.length === 0) {
      // Before the first sync there is no scope yet: nothing to ask, and no check to record.
      this.store.keepProjects(accountId, [])
      return
    }
    const client = await this.options.accounts.clientFor(accountId)
    const first = this.store.account(accountId)?.alertsCheckedAt == null
    const known = this.store.projects(accountId)
    const answers = await queryProjects(client, accountId, projects, {
      statuses: ['triggered', 'acknowledged'],
      first: FEED_PAGE,
      counts: true,
      batch: w.alertBatch,
      signal: w.controller.signal,
      onBatch: (size) => (w.alertBatch = size),
    })
    if (w.removed) return
    const now = new Date().toISOString()
    const news: NotifyAlert[] = []
    for (const answer of answers) {
      // An unreadable project is left unmarked: if access comes later, its old alerts are not news.
      if (!answer.readable) continue
      const previous = known.get(answer.project.id)
      const lastAlertIid = Math.max(previous?.lastAlertIid ?? 0, ...answer.alerts.map((a) => a.iid))
      // A project seen for the first time (a new account, or one that joined the scope) only sets its mark.
      if (previous !== undefined && !first)
        news.push(...answer.alerts.filter((a) => a.status === 'triggered' && a.iid > previous.lastAlertIid))
      this.store.recordProject(accountId, projectRow(answer, lastAlertIid), answer.alerts, now)
    }
    this.store.keepProjects(
      accountId,
      projects.map((p) => p.id),
    )
    this.store.updateAccount(accountId, { alertsCheckedAt: now })
    if (!this.announces(accountId, 'alerts')) return
    if (first) {
      const open = this.store.alertCounts(accountId)?.open ?? 0
      if (open > 0)
        this.announce(
          await this.summaryAnnouncement(
            accountId,
            'alert',
            open,
            `${open} open alert${open === 1 ? '' : 's'}`,
            '/alerts',
          ),
        )
      return
    }
    news.sort((a, b) => a.projectId - b.projectId || a.iid - b.iid)
    if (news.length > BURST) {
      this.announce(
        await this.summaryAnnouncement(accountId, 'alert', news.length, `${news.length} new alerts`, '/alerts'),
      )
      return
    }
    for (const a of news) {
      const severity = a.severity[0].toUpperCase() + a.severity.slice(1)
      this.announce({
        kind: 'alert',
        accountId,
        key: `alert:${a.projectId}:${a.iid}`,
        title: `${severity} alert in ${a.projectPath}`,
        body: a.eventCount > 1 ? `${a.title} (${a.eventCount} events)` : a.title,
        url: a.url,
        route: a.route,
        count: 1,
        topic: 'alerts',
      })
    }
  }

  // --- alert actions -----------------------------------------------------------------------------

  private async alertAction(
    accountId: string,
    projectId: number,
    what: string,
    run: (client: ApiClient, project: ScopeProject) => Promise<NotifyAlert>,
  ): Promise<NotifyAlert> {
    const account = await this.account(accountId)
    const client = await this.options.accounts.clientFor(accountId)
    const host = new URL(account.baseUrl).host
    const refuse = (detail?: string): AlertActionError =>
      new AlertActionError(
        'offline',
        `${what} needs a connection to ${host}, which cannot be reached${detail === undefined ? '' : ` (${detail})`}. It is not queued for later: an alert changes on the server (new events, other responders), so it is only changed as it is now.`,
      )
    if (!this.options.accounts.connectivityFor(accountId).online) throw refuse()
    try {
      const path =
        this.store.projectPath(accountId, projectId) ??
        (await client.get<JsonObject>(`/projects/${projectId}`)).path_with_namespace
      if (typeof path !== 'string') throw new AlertActionError('not-found', 'Project not found.')
      const project = { id: projectId, fullPath: path }
      const alert = await run(client, project)
      await this.recheckProject(accountId, client, project)
      return alert
    } catch (error) {
      if (error instanceof NetworkError) throw refuse(error.message)
      throw error
    }
  }

  /** After an action, the project's counts and open alerts as the instance now has them (best effort: the next check corrects them anyway). */
  private async recheckProject(accountId: string, client: ApiClient, project: ScopeProject): Promise<void> {
    const previous = this.store.projects(accountId).get(project.id)
    if (previous === undefined) return
    try {
      const [answer] = await queryProjects(client, accountId, [project], {
        statuses: ['triggered', 'acknowledged'],
        first: FEED_PAGE,
        counts: true,
        batch: 1,
      })
      if (answer === undefined) return
      this.store.recordProject(
        accountId,
        projectRow(answer, Math.max(previous.lastAlertIid, ...answer.alerts.map((a) => a.iid))),
        answer.alerts,
        new Date().toISOString(),
      )
      this.emitCounts()
    } catch {
      /* the next check will do it */
    }
  }

  // --- events ------------------------------------------------------------------------------------

  private cacheChanged(change: CacheChange): void {
    if (!change.kinds.includes('todo')) return
    const w = this.watches.get(change.accountId)
    if (w === undefined || w.removed) return
    // Server data may bring new to-dos (a sync run); optimistic changes (marked done offline) only change the count.
    if (!change.optimistic && this.store.account(change.accountId)?.lastTodoId != null)
      void this.announceTodos(w).catch(() => undefined)
    this.emitCounts()
  }

  private emitCounts(): void {
    const counts = this.counts()
    const text = JSON.stringify(counts)
    if (text === this.lastCounts) return
    this.lastCounts = text
    this.options.onChange?.(counts)
  }

  private announce(announcement: NotifyAnnouncement): void {
    this.options.onAnnounce?.(announcement)
  }

  private announces(accountId: string, topic: NotifyTopic): boolean {
    return topicAnnounces(this.options.preferences.get(), accountId, topic)
  }

  private anyTodoTopic(accountId: string): boolean {
    return (['mentions', 'assignments', 'reviews', 'otherTodos'] as const).some((t) => this.announces(accountId, t))
  }

  private async summaryAnnouncement(
    accountId: string,
    kind: 'todo' | 'alert',
    count: number,
    title: string,
    route: string,
  ): Promise<NotifyAnnouncement> {
    const account = await this.account(accountId)
    return {
      kind,
      accountId,
      key: `${kind}s:summary`,
      title,
      body: `${account.username} on ${new URL(account.baseUrl).host}`,
      url: null,
      route,
      count,
      topic: null,
    }
  }

  private async account(accountId: string): Promise<Account> {
    const known = this.accountsById.get(accountId)
    if (known !== undefined) return known
    const account = (await this.options.accounts.list()).find((a) => a.id === accountId)
    if (account === undefined) throw Object.assign(new Error('No such account.'), { code: 'account-not-found' })
    this.accountsById.set(accountId, account)
    return account
  }
}

function projectRow(
  answer: ProjectAlerts,
  lastAlertIid: number,
): { projectId: number; fullPath: string; lastAlertIid: number; openCount: number; triggeredCount: number } {
  return {
    projectId: answer.project.id,
    fullPath: answer.project.fullPath,
    lastAlertIid,
    openCount: answer.open,
    triggeredCount: answer.triggered,
  }
}

function newestFirst(a: NotifyAlert, b: NotifyAlert): number {
  return (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || b.iid - a.iid
}
