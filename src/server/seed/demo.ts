/**
 * The `demo` profile: the Kestrel world (world.ts) written through the server's own services,
 * with each project's planned life (plan.ts) replayed in time order under a simulated clock, so
 * activity feeds, to-do lists and discussions read like months of real work.
 */
import type { ServerContext } from '../platform/context'
import { nowIso, withClock } from '../platform/db/connection'
import { findEpicById, type EpicRow } from '../modules/epics/queries'
import { findIssueByIid } from '../modules/issues/queries'
import { findMergeRequestByIid, insertApproval, updateMergeRequestRow } from '../modules/merge-requests/queries'
import { findMilestoneById, type MilestoneRow } from '../modules/milestones/queries'
import { findNamespaceById, findProjectById } from '../modules/namespaces'
import type { NoteRow } from '../modules/notes/queries'
import type { NamespaceRow, ProjectRow, UserRow } from '../platform/db/rows'
import { discussionNotes, renameDiscussion } from '../modules/notes'
import { pendingTodosOnFinishedTargets } from '../modules/todos'
import { findUserByUsername, insertUser, userNamespaceId, createUser } from '../modules/users'
import { hashPassword, randomPassword } from '../platform/auth/secrets'
import { ZERO_SHA } from '../platform/git/git'
import { projectGitDir } from '../platform/git/project-repo'
import { moveRef } from '../platform/git/write-commit'
import { addAward } from '../modules/award-emoji'
import { recordEvent } from '../modules/events'
import { assignIssueToEpic, createEpicFromParams, updateEpicFromParams } from '../modules/epics/service'
import { createGroup } from '../modules/groups'
import { addSpentTime, setTimeEstimate } from '../modules/time-tracking/service'
import { createIssue, updateIssue } from '../modules/issues/service'
import { createLabel } from '../modules/labels/service'
import { sourceOfRow, addMember } from '../modules/members'
import { closeReferencedIssues } from '../modules/merge-requests/merge'
import { createMergeRequest, updateMergeRequest } from '../modules/merge-requests/service'
import { mergeabilityIdle, queueMergeabilityCheck } from '../modules/merge-requests/mergeability'
import { createMilestone, updateMilestone, type MilestoneOwner } from '../modules/milestones/service'
import { issueNoteable } from '../modules/issues/noteable'
import { mergeRequestNoteable } from '../modules/merge-requests/noteable'
import { createNote, type Noteable } from '../modules/notes/service'
import { createProject } from '../modules/projects'
import { createPipelinesOnPush } from '../modules/pipelines'
import { pushLanded, type PushListener } from '../platform/git/push-listeners'
import { refreshFlagsOnPush, refreshRepositoryFlags } from '../modules/repository'
import { markTodoDone } from '../modules/todos/service'
import { noteApproval } from '../modules/merge-requests/system-notes'
import { mergeRequestTarget, recordStateEvent } from '../modules/notes/system-notes'
import { callerFor, type Caller } from '../platform/caller'
import { planOperations, type DemoHost } from './operations'
import { importHistory, type ImportedHistory } from './history'
import {
  DAY,
  HOUR,
  MINUTE,
  planProject,
  type IssuePlan,
  type MergeRequestPlan,
  type MilestoneWindow,
  type NotePlan,
  type ProjectPlan,
  type RefMove,
} from './plan'
import { Random } from './random'
import {
  EPICS,
  GROUP_LABELS,
  GROUPS,
  PEOPLE,
  PROJECTS,
  RELEASE_MILESTONES,
  VERSION_MILESTONES,
  type ProjectSpec,
} from './world'
import { epicNoteable } from '../modules/epics/noteable'

const EPIC_COMMENTS = [
  'Updated the dates after planning: the beta slips by a week.',
  'Customer interviews are summarised in the linked issues.',
  'Design review is done, mockups are attached to the first issue.',
  'Scope cut: bulk edits move to the next epic.',
  'This is on track. Remaining work is mostly polish and docs.',
]

export interface DemoOptions {
  readonly seed: string
  /** The moment the content leads up to: milestones, due dates and activity are relative to it. */
  readonly now: Date
  /** Origin stored in event payloads (user URLs), as a request to this server would give it. */
  readonly baseUrl: string
}

/** One thing that happens at a moment of the simulated past. */
interface Step {
  readonly at: number
  readonly seq: number
  readonly run: () => Promise<void> | void
}

/**
 * Writes the demo content into an instance whose database has no demo content yet. Every write
 * goes through the services the API routes use, as the person who would have done it, at the
 * moment the plan says; the same seed and `now` give the same content, ids and object names.
 */
export async function seedDemo(ctx: ServerContext, options: DemoOptions): Promise<void> {
  const rng = new Random(`demo/${options.seed}`)
  const now = Math.floor(options.now.getTime() / MINUTE) * MINUTE
  const orgStart = now - 240 * DAY
  let current = orgStart
  // Replayed pushes run the server's push listeners (activity events, merge request refresh and
  // mergeability) but two: repository flags only change with a project's first push, so they are
  // refreshed once per project at the end; pipelines are left out, because without runners each
  // of the hundreds of replayed pushes would leave a pipeline pending forever.
  const skipped: readonly PushListener[] = [refreshFlagsOnPush, createPipelinesOnPush]
  const replay: ServerContext = { ...ctx, pushListeners: ctx.pushListeners.filter((l) => !skipped.includes(l)) }
  const clock = { now: (): number => current, set: (t: number): void => void (current = t) }
  await withClock(
    () => new Date(current),
    async () => {
      const w = new DemoWriter(replay, ctx, options, rng, clock)
      await w.setUp(orgStart, clock.set, now)
      // setUp leaves the clock at the last project's start; the replay starts from the beginning, so
      // steps planned before that moment keep their own times instead of all bunching up there.
      clock.set(orgStart)
      const steps = w.plan(orgStart, now)
      steps.sort((a, b) => a.at - b.at || a.seq - b.seq)
      for (const step of steps) {
        current = Math.max(current, step.at)
        await step.run()
        // A check a step queued settles at that step's time (a settled status moves updated_at), not
        // at whatever time a later step has set when the background queue gets to it.
        await mergeabilityIdle(replay)
      }
      current = now
      await mergeabilityIdle(replay)
      await w.finish()
    },
  )
}

class DemoWriter {
  private readonly db: ServerContext['db']
  private readonly users = new Map<string, UserRow>()
  private readonly groups = new Map<string, NamespaceRow>()
  private readonly projects = new Map<string, ProjectRow>()
  private readonly imported = new Map<string, ImportedHistory>()
  /** Where each project's refs point now: the replay is the only writer of branches and tags. */
  private readonly refs = new Map<string, Map<string, string>>()
  private readonly plans: ProjectPlan[] = []
  private readonly milestoneIds = new Map<string, Map<string, number>>()
  private readonly steps: Step[] = []
  private seq = 0

  private readonly baseUrl: string

  constructor(
    private readonly ctx: ServerContext,
    /** The server's own context (the replay's drops two push listeners): CI listeners live on it. */
    private readonly live: ServerContext,
    private readonly options: DemoOptions,
    private readonly rng: Random,
    private readonly clock: { now(): number; set(t: number): void },
  ) {
    this.db = ctx.db
    this.baseUrl = options.baseUrl
  }

  /** The services' caller acting as `username` from this machine (fresh permissions each time). */
  private caller(username: string): Caller {
    return callerFor(this.ctx, this.user(username), { baseUrl: this.baseUrl, ip: '127.0.0.1' })
  }

  private user(username: string): UserRow {
    const u = this.users.get(username)
    if (!u) throw new Error(`seed: unknown user ${username}`)
    return u
  }

  private at(t: number, run: () => Promise<void> | void): void {
    this.steps.push({ at: t, seq: this.seq++, run })
  }

  /** People, groups, labels, milestones and projects (with their imported git objects). */
  async setUp(orgStart: number, setClock: (t: number) => void, now: number): Promise<void> {
    setClock(orgStart)
    let root = findUserByUsername(this.db, 'root')
    if (!root)
      root = insertUser(this.db, {
        username: 'root',
        name: 'Administrator',
        email: 'admin@example.com',
        password_hash: hashPassword(randomPassword()),
        is_admin: true,
      })
    this.users.set('root', root)
    for (const [i, p] of PEOPLE.entries()) {
      setClock(orgStart + i * 3 * HOUR)
      const email = p.username === 'kofi' ? 'kofi@mensah.example' : `${p.username}@kestrel.example`
      const created = createUser(this.caller('root'), {
        username: p.username,
        name: p.name,
        email,
        force_random_password: true,
        skip_confirmation: true,
        bio: p.bio,
        location: p.location,
        job_title: p.jobTitle,
        pronouns: p.pronouns,
        organization: p.username === 'kofi' ? undefined : 'Kestrel',
        public_email: email,
      })
      this.users.set(p.username, created)
    }

    setClock(orgStart + DAY)
    for (const g of GROUPS) {
      const parent = g.parent ? (this.groups.get(g.parent) as NamespaceRow) : null
      const group = createGroup(this.caller(g.creator), {
        name: g.name,
        path: g.path,
        parent,
        visibility: g.visibility,
        description: g.description,
        params: {},
      })
      this.groups.set(g.key, group)
      for (const [username, level] of g.members) {
        addMember(
          this.caller(g.creator),
          sourceOfRow(this.caller(g.creator), { source_type: 'Namespace', source_id: group.id }),
          this.user(username),
          level,
          null,
        )
      }
    }
    const kestrel = this.groups.get('kestrel') as NamespaceRow
    for (const label of GROUP_LABELS) {
      createLabel(
        this.caller('amara'),
        { groupId: kestrel.id },
        { groupIds: [kestrel.id], projectIds: [] },
        { name: label.title, color: label.color, description: label.description },
      )
    }
    this.milestoneIds.set(
      'group',
      this.createMilestones({ kind: 'group', group: kestrel }, 'amara', RELEASE_MILESTONES, now),
    )

    for (const spec of PROJECTS) {
      const start = now - spec.ageDays * DAY
      setClock(start)
      const namespace = spec.namespace.startsWith('user:')
        ? (findNamespaceById(
            this.db,
            userNamespaceId(this.db, this.user(spec.namespace.slice('user:'.length)).id) as number,
          ) as NamespaceRow)
        : (this.groups.get(spec.namespace) as NamespaceRow)
      const project = await createProject(this.caller(spec.creator), {
        name: spec.name,
        path: spec.path,
        namespace,
        creator: this.user(spec.creator),
        description: spec.description,
        visibility: spec.visibility,
        params: { topics: spec.topics },
      })
      this.projects.set(spec.key, project)
      for (const [username, level] of spec.members) {
        addMember(
          this.caller(spec.creator),
          sourceOfRow(this.caller(spec.creator), { source_type: 'Project', source_id: project.id }),
          this.user(username),
          level,
          null,
        )
      }
      for (const label of spec.labels) {
        createLabel(
          this.caller(spec.creator),
          { projectId: project.id },
          { groupIds: [], projectIds: [project.id] },
          { name: label.title, color: label.color, description: label.description },
        )
      }
      let windows: MilestoneWindow[] = []
      if (spec.milestones === 'project') {
        const ids = this.createMilestones({ kind: 'project', project }, spec.creator, VERSION_MILESTONES, now)
        this.milestoneIds.set(spec.key, ids)
        windows = this.windows(VERSION_MILESTONES, now)
      } else if (spec.milestones === 'group') {
        this.milestoneIds.set(spec.key, this.milestoneIds.get('group') as Map<string, number>)
        windows = this.windows(RELEASE_MILESTONES, now)
      }
      const plan = planProject(spec, `${namespace.full_path}/${project.path}`, {
        rng: this.rng.fork(spec.key),
        now,
        people: new Map(PEOPLE.map((p) => [p.username, p])),
        milestones: windows,
        emails: new Map([...this.users].map(([u, row]) => [u, row.commit_email || row.email])),
      })
      this.plans.push(plan)
      this.imported.set(spec.key, await importHistory(projectGitDir(this.ctx, project), plan.history))
    }
  }

  private windows(
    list: readonly { readonly title: string; readonly dueInDays: number | null; readonly lengthDays: number }[],
    now: number,
  ): MilestoneWindow[] {
    return list.map((m) => ({
      title: m.title,
      due: m.dueInDays === null ? null : now + m.dueInDays * DAY,
      start: m.dueInDays === null ? null : now + (m.dueInDays - m.lengthDays) * DAY,
    }))
  }

  /** Creates the milestones now and plans the closing of those already due. */
  private createMilestones(
    owner: MilestoneOwner,
    by: string,
    list: readonly {
      readonly title: string
      readonly dueInDays: number | null
      readonly lengthDays: number
      readonly description: string
    }[],
    now: number,
  ): Map<string, number> {
    const ids = new Map<string, number>()
    const day = (offset: number): string => new Date(now + offset * DAY).toISOString().slice(0, 10)
    for (const m of list) {
      const row = createMilestone(
        this.caller(by),
        owner,
        {
          title: m.title,
          description: m.description,
          due_date: m.dueInDays === null ? undefined : day(m.dueInDays),
          start_date: m.dueInDays === null ? undefined : day(m.dueInDays - m.lengthDays),
        },
        this.user(by).id,
      )
      ids.set(m.title, row.id)
      if (m.dueInDays !== null && m.dueInDays < 0) {
        this.at(now + (m.dueInDays + 2) * DAY, () => {
          updateMilestone(
            this.caller(by),
            owner,
            findMilestoneById(this.db, row.id) as MilestoneRow,
            { state_event: 'close' },
            this.user(by).id,
          )
        })
      }
    }
    return ids
  }

  /** Every step of every project's plan, the epics, and the CI/CD and operations content. */
  plan(orgStart: number, now: number): Step[] {
    for (const plan of this.plans) {
      const project = this.projects.get(plan.spec.key) as ProjectRow
      for (const move of plan.moves) this.at(move.at, () => this.push(plan.spec, project, move))
      for (const issue of plan.issues) this.planIssue(plan.spec, project, issue)
      for (const mr of plan.mergeRequests) this.planMergeRequest(plan.spec, project, mr)
    }
    this.planEpics(now)
    planOperations(this.operationsHost(), orgStart, now)
    return this.steps
  }

  private operationsHost(): DemoHost {
    return {
      live: this.live,
      baseUrl: this.baseUrl,
      seed: this.options.seed,
      plans: this.plans,
      user: (username) => this.user(username),
      project: (key) => this.fresh(this.projects.get(key) as ProjectRow),
      group: (key) => this.groups.get(key) as NamespaceRow,
      commitSha: (key, mark) => (this.imported.get(key) as ImportedHistory).commits.get(mark) as string,
      at: (t, run) => this.at(t, run),
      clock: this.clock,
    }
  }

  /** Epics of the groups: a roadmap with child epics, each gathering issues of its projects, with comments. */
  private planEpics(now: number): void {
    const rng = this.rng.fork('epics')
    const ids = new Map<string, number>()
    const linked = new Set<string>()
    for (const spec of EPICS) {
      const group = this.groups.get(spec.group) as NamespaceRow
      const opened = now - spec.openedDaysAgo * DAY
      const day = (offset: number | null): string | undefined =>
        offset === null ? undefined : new Date(now + offset * DAY).toISOString().slice(0, 10)
      const epic = (): EpicRow => findEpicById(this.db, ids.get(spec.key) as number) as EpicRow
      this.at(opened, () => {
        const row = createEpicFromParams(this.caller(spec.author), group, {
          title: spec.title,
          description: spec.description,
          labels: spec.labels.join(','),
          parent_id: spec.parent !== undefined ? ids.get(spec.parent) : undefined,
          start_date_is_fixed: spec.startInDays !== null,
          start_date_fixed: day(spec.startInDays),
          due_date_is_fixed: spec.dueInDays !== null,
          due_date_fixed: day(spec.dueInDays),
        })
        ids.set(spec.key, row.id)
      })
      const candidates = this.plans
        .filter((p) => spec.issuesFrom.includes(p.spec.key))
        .flatMap((p) =>
          p.issues
            .filter((i) => !i.confidential && !linked.has(`${p.spec.key}#${i.iid}`))
            .map((issue) => ({ project: p.spec.key, issue })),
        )
        .filter(
          (c) =>
            c.issue.at < now - DAY &&
            (spec.closedDaysAgo === undefined || c.issue.at < now - spec.closedDaysAgo * DAY - DAY),
        )
      for (const { project: key, issue } of rng.sample(candidates, spec.issueCount)) {
        linked.add(`${key}#${issue.iid}`)
        const when = Math.max(opened, issue.at) + rng.int(1, 48) * HOUR
        this.at(Math.min(when, now - HOUR), () => {
          const target = findIssueByIid(this.db, (this.projects.get(key) as ProjectRow).id, issue.iid)
          if (target) assignIssueToEpic(this.caller(spec.author), group, epic(), target.id)
        })
      }
      const commenters = [
        ...new Set([spec.author, ...PROJECTS.filter((p) => spec.issuesFrom.includes(p.key)).flatMap((p) => p.team)]),
      ].filter((u) => u !== 'root')
      const until = spec.closedDaysAgo !== undefined ? now - spec.closedDaysAgo * DAY : now - HOUR
      const notes: NotePlan[] = Array.from({ length: rng.int(1, 3) }, () => ({
        at: opened + Math.floor(rng.next() * (until - opened - HOUR)) + HOUR,
        author: rng.pick(commenters),
        body: rng.pick(EPIC_COMMENTS),
        thread: false,
        replies: [],
        awards: [],
      })).sort((a, b) => a.at - b.at)
      this.planNotes(notes, (caller) => epicNoteable(caller, group, epic()))
      if (spec.closedDaysAgo !== undefined) {
        this.at(
          now - spec.closedDaysAgo * DAY,
          () => void updateEpicFromParams(this.caller(spec.author), group, epic(), { state_event: 'close' }),
        )
      }
    }
  }

  private refsOf(spec: ProjectSpec): Map<string, string> {
    let refs = this.refs.get(spec.key)
    if (!refs) {
      refs = new Map()
      this.refs.set(spec.key, refs)
    }
    return refs
  }

  private fresh(project: ProjectRow): ProjectRow {
    return findProjectById(this.db, project.id) as ProjectRow
  }

  /** Moves a ref as a push would, and tells the push listeners (events, merge request refresh). */
  private async push(spec: ProjectSpec, project: ProjectRow, move: RefMove): Promise<void> {
    const gitDir = projectGitDir(this.ctx, project)
    const objects = this.imported.get(spec.key) as ImportedHistory
    const next =
      move.tag !== null
        ? (objects.tags.get(move.tag) as string)
        : move.mark === null
          ? null
          : (objects.commits.get(move.mark) as string)
    const refs = this.refsOf(spec)
    const old = refs.get(move.ref) ?? null
    await moveRef(gitDir, move.ref, next, old)
    if (next === null) refs.delete(move.ref)
    else refs.set(move.ref, next)
    await pushLanded({
      ctx: this.ctx,
      project: this.fresh(project),
      user: this.user(move.user),
      updates: [{ oldSha: old ?? ZERO_SHA, newSha: next ?? ZERO_SHA, ref: move.ref }],
    })
  }

  private planIssue(spec: ProjectSpec, project: ProjectRow, plan: IssuePlan): void {
    const milestones = this.milestoneIds.get(spec.key)
    const load = (): NonNullable<ReturnType<typeof findIssueByIid>> =>
      findIssueByIid(this.db, project.id, plan.iid) as NonNullable<ReturnType<typeof findIssueByIid>>
    this.at(plan.at, () => {
      const issue = createIssue(this.caller(plan.author), this.fresh(project), {
        title: plan.text.title,
        description: plan.text.description,
        labels: plan.labels.join(','),
        milestone_id: plan.milestone !== null ? milestones?.get(plan.milestone) : undefined,
        assignee_ids: plan.assignees.map((u) => this.user(u).id),
        due_date: plan.dueDate ?? undefined,
        weight: plan.weight ?? undefined,
        confidential: plan.confidential,
      })
      if (issue.iid !== plan.iid)
        throw new Error(`seed: issue ${spec.key}#${issue.iid} created where #${plan.iid} was planned`)
    })
    const trackable = (): { type: 'Issue'; id: number; projectId: number } => ({
      type: 'Issue',
      id: load().id,
      projectId: project.id,
    })
    if (plan.estimate) {
      const e = plan.estimate
      this.at(e.at, () => void setTimeEstimate(this.caller(e.by), trackable(), e.seconds))
    }
    for (const s of plan.spends)
      this.at(s.at, () => void addSpentTime(this.caller(s.by), trackable(), s.seconds, s.summary))
    for (const a of plan.awards)
      this.at(a.at, () => void addAward(this.db, { type: 'Issue', id: load().id }, this.user(a.by).id, a.name))
    this.planNotes(plan.notes, (caller) => issueNoteable(caller, this.fresh(project), load()))
    if (plan.close) {
      const close = plan.close
      this.at(
        close.at,
        () => void updateIssue(this.caller(close.by), this.fresh(project), load(), { state_event: 'close' }),
      )
    }
  }

  private planNotes(notes: readonly NotePlan[], noteable: (caller: Caller) => Noteable): void {
    for (const n of notes) {
      let first: NoteRow | null = null
      this.at(n.at, () => {
        const caller = this.caller(n.author)
        const result = createNote(caller, noteable(caller), n.body, { thread: n.thread })
        if (result.kind !== 'note') return
        // Discussion ids are random in the service; the seed's own keep the content reproducible.
        const id = this.rng.hex(40)
        renameDiscussion(this.db, result.note.discussion_id, id)
        first = { ...result.note, discussion_id: id }
        for (const a of n.awards) addAward(this.db, { type: 'Note', id: result.note.id }, this.user(a.by).id, a.name)
      })
      for (const r of n.replies) {
        this.at(r.at, () => {
          if (!first) return
          const caller = this.caller(r.author)
          const scope = { noteableType: first.noteable_type, noteableId: first.noteable_id, includeInternal: true }
          const thread = discussionNotes(this.db, scope, first.discussion_id)
          createNote(caller, noteable(caller), r.body, { replyTo: thread })
        })
      }
    }
  }

  private planMergeRequest(spec: ProjectSpec, project: ProjectRow, plan: MergeRequestPlan): void {
    const milestones = this.milestoneIds.get(spec.key)
    const load = (): NonNullable<ReturnType<typeof findMergeRequestByIid>> =>
      findMergeRequestByIid(this.db, project.id, plan.iid) as NonNullable<ReturnType<typeof findMergeRequestByIid>>
    this.at(plan.at, async () => {
      const author = this.user(plan.author)
      const p = this.fresh(project)
      const mr = await createMergeRequest(
        this.caller(plan.author),
        p,
        p,
        {
          title: plan.title,
          description: plan.description,
          source_branch: plan.branch,
          target_branch: 'main',
          assignee_ids: plan.assignees.map((u) => this.user(u).id),
          reviewer_ids: plan.reviewers.map((u) => this.user(u).id),
          labels: plan.labels,
          milestone_id: plan.milestone !== null ? (milestones?.get(plan.milestone) ?? null) : null,
          remove_source_branch: plan.removeSourceBranch,
        },
        author,
      )
      if (mr.iid !== plan.iid)
        throw new Error(`seed: merge request ${spec.key}!${mr.iid} created where !${plan.iid} was planned`)
      queueMergeabilityCheck(this.ctx, mr.id)
    })
    this.planNotes(plan.notes, (caller) => mergeRequestNoteable(caller, this.fresh(project), load()))
    for (const a of plan.awards)
      this.at(a.at, () => void addAward(this.db, { type: 'MergeRequest', id: load().id }, this.user(a.by).id, a.name))
    for (const a of plan.approvals) {
      this.at(a.at, () => {
        const mr = load()
        if (insertApproval(this.db, mr.id, this.user(a.by).id)) {
          noteApproval(this.db, mr, this.user(a.by).id, true)
          recordEvent(this.db, {
            authorId: this.user(a.by).id,
            action: 'approved',
            projectId: project.id,
            targetType: 'MergeRequest',
            targetId: mr.id,
            targetIid: mr.iid,
            targetTitle: mr.title,
          })
        }
      })
    }
    const end = plan.end
    if (!end) return
    if (plan.state === 'closed') {
      this.at(end.at, async () => {
        // A check still running when the merge request closes would leave it `checking` for ever.
        await mergeabilityIdle(this.ctx)
        await updateMergeRequest(
          this.caller(end.by),
          this.fresh(project),
          load(),
          { state_event: 'close' },
          this.user(end.by),
        )
      })
      return
    }
    this.at(end.at, () => this.merge(spec, project, plan, end.by, end.mergeMark as number))
  }

  /**
   * Lands a planned merge commit the way services/merge.ts merges: the target branch moves to the
   * merge commit, the merge request records it, push listeners run, the source branch goes when
   * asked, and the issues it closes are closed by the merging user. The commit itself was planned
   * (fixed dates, reproducible ids) instead of written at merge time.
   */
  private async merge(
    spec: ProjectSpec,
    project: ProjectRow,
    plan: MergeRequestPlan,
    by: string,
    mark: number,
  ): Promise<void> {
    const gitDir = projectGitDir(this.ctx, project)
    const mergeSha = (this.imported.get(spec.key) as ImportedHistory).commits.get(mark) as string
    const refs = this.refsOf(spec)
    const target = refs.get('refs/heads/main')
    const source = refs.get(`refs/heads/${plan.branch}`)
    if (!target || !source) throw new Error(`seed: ${spec.key}!${plan.iid} has no branches to merge`)
    // As for a close: the mergeability check of the last push lands before the merge, as it would
    // have in the days between them, instead of racing it and leaving `checking` behind.
    await mergeabilityIdle(this.ctx)
    const merger = this.user(by)
    await moveRef(gitDir, 'refs/heads/main', mergeSha, target)
    refs.set('refs/heads/main', mergeSha)
    const mr = mergeRequestOf(this.db, project.id, plan.iid)
    const row = updateMergeRequestRow(this.db, mr.id, {
      state: 'merged',
      merged_by_id: merger.id,
      merged_at: nowIso(),
      merge_commit_sha: mergeSha,
      squash_commit_sha: null,
      squash: 0,
      head_sha: source,
      merge_when_pipeline_succeeds: 0,
      merge_error: null,
    })
    recordEvent(this.db, {
      authorId: merger.id,
      action: 'merged',
      projectId: project.id,
      targetType: 'MergeRequest',
      targetId: mr.id,
      targetIid: mr.iid,
      targetTitle: mr.title,
    })
    recordStateEvent(this.db, mergeRequestTarget(mr), merger.id, 'merged')
    const p = this.fresh(project)
    await pushLanded({
      ctx: this.ctx,
      project: p,
      user: merger,
      updates: [{ oldSha: target, newSha: mergeSha, ref: 'refs/heads/main' }],
    })
    if (plan.removeSourceBranch) {
      const ref = `refs/heads/${plan.branch}`
      await moveRef(gitDir, ref, null, source)
      refs.delete(ref)
      await pushLanded({
        ctx: this.ctx,
        project: p,
        user: merger,
        updates: [{ oldSha: source, newSha: ZERO_SHA, ref }],
      })
    }
    closeReferencedIssues(this.caller(by), p, row)
  }

  /** Repository flags of every project; root has dealt with the to-dos whose target is finished. */
  async finish(): Promise<void> {
    for (const project of this.projects.values()) await refreshRepositoryFlags(this.ctx, this.fresh(project))
    const root = this.user('root')
    for (const id of pendingTodosOnFinishedTargets(this.db, root.id)) markTodoDone(this.db, id)
  }
}

function mergeRequestOf(
  db: ServerContext['db'],
  projectId: number,
  iid: number,
): NonNullable<ReturnType<typeof findMergeRequestByIid>> {
  const mr = findMergeRequestByIid(db, projectId, iid)
  if (!mr) throw new Error(`seed: merge request !${iid} of project ${projectId} is missing`)
  return mr
}
