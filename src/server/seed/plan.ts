/**
 * Plans one demo project's life, as pure data from a seeded generator: its git history (direct
 * commits, feature branches, merges, releases and tags) with the pushes that move its refs, and
 * its issues and merge requests with their discussions, reviews, votes and time tracking, each
 * action at a moment between the project's start and "now". demo.ts replays the plan.
 */
import {
  changelogEntry,
  functionName,
  functionSource,
  imperative,
  modulePath,
  newFunction,
  newModule,
  newTestFile,
  scaffold,
  testPath,
  testSource,
  versionBump,
  type FunctionSpec,
  type Language,
} from './code'
import { HistoryPlan, type Line, type Signature } from './history'
import type { Random } from './random'
import {
  authorReply,
  branchSlug,
  issueComment,
  issueText,
  mergeRequestDescription,
  reply,
  reviewComment,
  rootMention,
  type IssueKind,
  type IssueText,
} from './text'
import type { Person, ProjectSpec } from './world'

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

/** A milestone as the planner sees it: a title and the window it covers (ms). */
export interface MilestoneWindow {
  readonly title: string
  readonly start: number | null
  readonly due: number | null
}

export interface NotePlan {
  readonly at: number
  readonly author: string
  readonly body: string
  /** Starts a thread (the replies answer it); otherwise a plain comment. */
  readonly thread: boolean
  readonly replies: readonly { readonly at: number; readonly author: string; readonly body: string }[]
  readonly awards: readonly { readonly by: string; readonly name: string }[]
}

export interface IssuePlan {
  readonly iid: number
  readonly at: number
  readonly author: string
  readonly text: IssueText
  readonly labels: readonly string[]
  readonly milestone: string | null
  readonly assignees: readonly string[]
  readonly dueDate: string | null
  readonly weight: number | null
  readonly confidential: boolean
  /** When and by whom it is closed, unless a merge request closes it. */
  readonly close: { readonly at: number; readonly by: string } | null
  readonly estimate: { readonly at: number; readonly by: string; readonly seconds: number } | null
  readonly spends: readonly {
    readonly at: number
    readonly by: string
    readonly seconds: number
    readonly summary: string
  }[]
  readonly awards: readonly { readonly at: number; readonly by: string; readonly name: string }[]
  readonly notes: readonly NotePlan[]
}

export interface MergeRequestPlan {
  readonly iid: number
  readonly at: number
  readonly author: string
  readonly title: string
  readonly description: string
  readonly branch: string
  readonly assignees: readonly string[]
  readonly reviewers: readonly string[]
  readonly labels: readonly string[]
  readonly milestone: string | null
  readonly state: 'opened' | 'merged' | 'closed'
  /** Merge or close. */
  readonly end: { readonly at: number; readonly by: string; readonly mergeMark: number | null } | null
  readonly removeSourceBranch: boolean
  readonly approvals: readonly { readonly at: number; readonly by: string }[]
  readonly notes: readonly NotePlan[]
  readonly awards: readonly { readonly at: number; readonly by: string; readonly name: string }[]
  /** The open merge request whose branch conflicts with its target. */
  readonly conflicting: boolean
}

/** A push: a ref moved to a planned commit (or tag), or deleted when `mark` is null. */
export interface RefMove {
  readonly at: number
  readonly ref: string
  readonly mark: number | null
  readonly tag: string | null
  readonly user: string
}

export interface ProjectPlan {
  readonly spec: ProjectSpec
  readonly history: HistoryPlan
  readonly moves: readonly RefMove[]
  readonly issues: readonly IssuePlan[]
  readonly mergeRequests: readonly MergeRequestPlan[]
}

export interface PlanContext {
  readonly rng: Random
  readonly now: number
  readonly people: ReadonlyMap<string, Person>
  readonly milestones: readonly MilestoneWindow[]
  /** Email of each username, for commit signatures. */
  readonly emails: ReadonlyMap<string, string>
}

const MODULE_SUFFIXES = ['Cache', 'Export', 'Metrics', 'Queue', 'Policy', 'Report', 'Import', 'Alerts']

function at(rng: Random, from: number, to: number): number {
  const t = from + rng.next() * Math.max(0, to - from)
  return Math.floor(t / 1000) * 1000
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/** The milestone a thing created (or finished) at `t` belongs to: the first one still open then. */
function milestoneAt(milestones: readonly MilestoneWindow[], t: number): string | null {
  const dated = milestones.filter((m) => m.due !== null).sort((a, b) => (a.due as number) - (b.due as number))
  return dated.find((m) => (m.due as number) >= t)?.title ?? null
}

interface ModuleRef {
  readonly name: string
  readonly entity: string
}

/** Plans one project; `fullPath` is where it lives (`group/subgroup/project`). */
export function planProject(spec: ProjectSpec, fullPath: string, c: PlanContext): ProjectPlan {
  const { rng, now } = c
  /** `t` when it is before `limit`, else a moment between `earliest` and `limit`, so nothing piles up at the limit. */
  const before = (limit: number, t: number, earliest: number): number =>
    t < limit ? t : at(rng, Math.min(earliest, limit - MINUTE), limit)
  const start = now - spec.ageDays * DAY
  const pkg = spec.path.replace(/-/g, '_')
  const language: Language = spec.language
  const sig = (username: string): Signature => ({
    name: c.people.get(username)?.name ?? 'Administrator',
    email: c.emails.get(username) ?? `${username}@kestrel.example`,
  })
  const devs = spec.team.filter(
    (u) =>
      u === 'root' ||
      (c.people.get(u)?.roles ?? []).some((r) =>
        ['backend', 'frontend', 'design', 'ops', 'community', 'lead'].includes(r),
      ),
  )
  const everyone = spec.team
  const history = new HistoryPlan()
  const moves: RefMove[] = []
  const main = HistoryPlan.emptyLine()
  const hasGroupLabels = spec.labelSet === 'kestrel'

  // --- the first commit: scaffold and a few modules ------------------------------------------
  const modules: ModuleRef[] = spec.domain.modules.map((name, i) => ({
    name,
    entity: spec.domain.entities[i % spec.domain.entities.length],
  }))
  const initial = scaffold(language, {
    name: spec.name,
    path: spec.path,
    pkg,
    description: spec.description,
    version: '0.1.0',
    deploy: spec.deploy,
    dependencies: spec.dependencies,
  })
  for (const m of modules.slice(0, 3)) addFunction(initial, m, newFunction(rng, m.entity))
  const firstAt = start + HOUR
  history.commit(main, firstAt, sig(spec.creator), 'Initial commit', initial)
  moves.push({ at: firstAt + 5 * MINUTE, ref: 'refs/heads/main', mark: main.tip, tag: null, user: spec.creator })

  function addFunction(files: Map<string, string>, m: ModuleRef, fn: FunctionSpec): string[] {
    const src = modulePath(language, pkg, m.name)
    files.set(src, (files.get(src) ?? newModule(language, pkg, m.name, m.entity)) + functionSource(language, fn))
    const test = testPath(language, m.name)
    const body = testSource(language, m.name, fn)
    if (test !== null && body !== null) files.set(test, (files.get(test) ?? newTestFile(language, pkg, m.name)) + body)
    return test !== null ? [src, test] : [src]
  }

  // --- issues that merge requests will close are planned with them; the rest afterwards ------
  interface DraftIssue extends Omit<IssuePlan, 'iid' | 'text'> {
    readonly text: IssueText
    readonly mr: DraftMr | null
  }
  interface DraftMr {
    readonly at: number
    readonly state: 'opened' | 'merged' | 'closed'
    readonly endAt: number | null
    readonly author: string
    readonly issue: DraftIssue | null
    readonly draft: boolean
    conflicting: boolean
    title?: string
    branch?: string
    module?: ModuleRef
    fns?: FunctionSpec[]
    files?: string[]
    forkAt: number
    pushAt: number
    mergeMark?: number
    followUpAt: number | null
  }

  const drafts: DraftIssue[] = []
  const mrs: DraftMr[] = []
  const kindLabel = (kind: IssueKind): string =>
    hasGroupLabels
      ? { bug: 'bug', feature: 'feature', chore: 'tech debt', docs: 'documentation' }[kind]
      : { bug: 'bug', feature: 'enhancement', chore: 'enhancement', docs: 'documentation' }[kind]

  function labelsFor(kind: IssueKind, open: boolean): string[] {
    if (spec.labelSet === 'none') return []
    const labels = [kindLabel(kind)]
    if (hasGroupLabels) {
      if (rng.chance(0.5))
        labels.push(
          rng.weighted([
            ['priority::high', 1],
            ['priority::medium', 3],
            ['priority::low', 2],
          ] as const),
        )
      if (open && rng.chance(0.45))
        labels.push(rng.pick(['workflow::ready', 'workflow::in progress', 'workflow::blocked']))
      if (rng.chance(0.12)) labels.push('customer')
      if (kind === 'bug' && rng.chance(0.15)) labels.push('performance')
      if (kind === 'feature' && rng.chance(0.25)) labels.push('ux')
    } else if (spec.labels.length > 0 && rng.chance(0.2)) {
      labels.push(rng.pick(['good first issue', 'help wanted', 'question']))
    }
    if (hasGroupLabels && spec.labels.length > 0 && rng.chance(0.55)) labels.push(rng.pick(spec.labels).title)
    return labels
  }

  function notesFor(from: number, to: number, author: string, component: string, count: number): NotePlan[] {
    const notes: NotePlan[] = []
    for (let i = 0; i < count; i++) {
      const t = at(rng, from + 10 * MINUTE, to - 10 * MINUTE)
      const who = rng.chance(0.3) ? author : rng.pick(everyone)
      const thread = rng.chance(0.35)
      const replies = thread
        ? Array.from({ length: rng.int(1, 3) }, (_, k) => ({
            at: Math.min(to - MINUTE, t + (k + 1) * rng.int(20, 600) * MINUTE),
            author: rng.pick(everyone),
            body: reply(rng, spec.domain, component),
          }))
        : []
      const body =
        who !== 'root' && everyone.includes('root') && rng.chance(0.06)
          ? rootMention(rng)
          : issueComment(rng, spec.domain, component)
      notes.push({
        at: t,
        author: who,
        body,
        thread,
        replies,
        awards: rng.chance(0.15)
          ? [{ by: rng.pick(everyone), name: rng.pick(['thumbsup', 'heart', 'tada', 'eyes']) }]
          : [],
      })
    }
    return notes.sort((a, b) => a.at - b.at)
  }

  function draftIssue(createdAt: number, kind: IssueKind, closeAt: number | null, mr: DraftMr | null): DraftIssue {
    const author = rng.chance(0.25) && everyone.includes('lena') ? 'lena' : rng.pick(everyone)
    const text = issueText(
      rng,
      spec.domain,
      kind,
      Math.floor((spec.issues * (createdAt - start)) / (now - start)) - 1,
      new Date(createdAt).toISOString().replace('T', ' ').slice(0, 19),
    )
    const open = closeAt === null
    const assignable = devs.filter((u) => u !== 'lena')
    const assignees = open ? (rng.chance(0.6) ? [rng.pick(assignable)] : []) : [mr ? mr.author : rng.pick(assignable)]
    const end = closeAt ?? now - 5 * MINUTE
    const noteCount = rng.weighted([
      [0, 25],
      [1, 20],
      [2, 15],
      [3, 12],
      [5, 10],
      [8, 6],
    ] as const)
    const security = kind === 'bug' && hasGroupLabels && rng.chance(0.05)
    const labels = labelsFor(kind, open)
    if (security) labels.push('security')
    if (mr?.state === 'opened' && hasGroupLabels) labels.push('workflow::in review')
    const milestone =
      spec.milestones === 'none'
        ? null
        : open
          ? rng.chance(0.75)
            ? milestoneAt(c.milestones, Math.max(createdAt, now))
            : null
          : milestoneAt(c.milestones, closeAt)
    const tracked = assignees.length > 0 && rng.chance(open ? 0.15 : 0.3)
    const estimateHours = rng.pick([1, 2, 4, 8, 16])
    return {
      at: createdAt,
      author,
      text,
      labels: [...new Set(labels)],
      milestone,
      assignees,
      dueDate: open && rng.chance(0.15) ? isoDate(now + rng.int(-5, 30) * DAY) : null,
      weight: rng.chance(0.4) ? rng.pick([1, 2, 3, 5, 8]) : null,
      confidential: security,
      close: closeAt !== null && mr === null ? { at: closeAt, by: assignees[0] ?? author } : null,
      estimate: tracked ? { at: createdAt + 30 * MINUTE, by: assignees[0], seconds: estimateHours * 3600 } : null,
      spends: tracked
        ? Array.from({ length: rng.int(1, 3) }, () => ({
            at: at(rng, createdAt + HOUR, end),
            by: assignees[0],
            seconds: rng.pick([30, 45, 60, 90, 120, 180, 240]) * 60,
            summary: rng.pick(['Investigation', 'Implementation', 'Review fixes', 'Pairing with QA']),
          })).sort((a, b) => a.at - b.at)
        : [],
      awards: rng.chance(0.3)
        ? rng
            .sample(
              everyone.filter((u) => u !== author),
              rng.int(1, 4),
            )
            .map((by) => ({
              at: at(rng, createdAt, end),
              by,
              name: rng.weighted([
                ['thumbsup', 6],
                ['heart', 2],
                ['rocket', 1],
                ['eyes', 1],
              ] as const),
            }))
        : [],
      notes: notesFor(createdAt, end, author, text.component, noteCount),
      mr,
    }
  }

  // Merge requests: when they open, how they end.
  const mrCount = spec.mergeRequests
  for (let k = 0; k < mrCount; k++) {
    const state =
      k === 0
        ? 'opened'
        : k === 1
          ? 'merged'
          : rng.weighted([
              ['merged', 60],
              ['opened', 26],
              ['closed', 14],
            ] as const)
    const created =
      state === 'opened' ? at(rng, now - 25 * DAY, now - 3 * HOUR) : at(rng, start + 6 * DAY, now - 4 * DAY)
    // Most merge requests are reviewed within a day or two; a few linger for a week.
    const lifetime = rng.weighted([
      [[4 * HOUR, DAY], 50],
      [[DAY, 3 * DAY], 35],
      [[3 * DAY, 8 * DAY], 15],
    ] as const)
    const endAt =
      state === 'opened' ? null : before(now - HOUR, created + at(rng, lifetime[0], lifetime[1]), created + 4 * HOUR)
    const author = rng.pick(devs.filter((u) => u !== 'root'))
    const forkAt = Math.max(firstAt + HOUR, created - at(rng, 2 * HOUR, rng.chance(0.8) ? DAY : 3 * DAY))
    const followUpAt =
      endAt !== null && rng.chance(0.5)
        ? at(rng, created + HOUR, endAt - 30 * MINUTE)
        : state === 'opened' && rng.chance(0.3)
          ? at(rng, created + HOUR, now - 30 * MINUTE)
          : null
    const mr: DraftMr = {
      at: created,
      state,
      endAt,
      author,
      issue: null,
      draft: false,
      conflicting: false,
      forkAt,
      pushAt: created - 5 * MINUTE,
      followUpAt,
    }
    if (rng.chance(0.45)) {
      const issueAt = Math.max(start + DAY, created - at(rng, DAY, 20 * DAY))
      const issue = draftIssue(issueAt, rng.chance(0.6) ? 'bug' : 'feature', state === 'merged' ? endAt : null, mr)
      ;(mr as { issue: DraftIssue | null }).issue = issue
      drafts.push(issue)
    }
    mrs.push(mr)
  }
  mrs.sort((a, b) => a.at - b.at)
  const openMrs = mrs.filter((m) => m.state === 'opened')
  if (openMrs.length >= 3) {
    openMrs[0].conflicting = true
    ;(openMrs[openMrs.length - 1] as { draft: boolean }).draft = true
  }

  // The remaining issues, newer ones more often open.
  const standalone = spec.issues - drafts.length
  for (let k = 0; k < standalone; k++) {
    const created = at(rng, start + DAY, now - 2 * HOUR)
    const age = (now - created) / DAY
    const closed = rng.chance(age > 90 ? 0.85 : age > 30 ? 0.55 : 0.2)
    const closeAt = closed ? before(now - HOUR, created + at(rng, 2 * HOUR, 30 * DAY), created + HOUR) : null
    const kind = rng.weighted([
      ['bug', 40],
      ['feature', 35],
      ['chore', 15],
      ['docs', 10],
    ] as const)
    drafts.push(draftIssue(created, kind, closeAt, null))
  }
  // iids follow creation order, as the replay creates them in time order.
  drafts.sort((a, b) => a.at - b.at)
  for (let i = 1; i < drafts.length; i++)
    if (drafts[i].at <= drafts[i - 1].at) (drafts[i] as { at: number }).at = drafts[i - 1].at + 1000
  const issueIid = new Map<DraftIssue, number>(drafts.map((d, i) => [d, i + 1]))
  const mrIid = new Map<DraftMr, number>(mrs.map((m, i) => [m, i + 1]))

  // --- git: replay forks, branch commits, merges, releases and chores in time order ---------
  type GitEvent = { at: number; run: () => void }
  const events: GitEvent[] = []
  const locked = new Set<string>()
  const branches = new Map<DraftMr, Line>()
  const usedBranchNames = new Set<string>()
  const mergedSinceRelease: string[] = []

  for (const mr of mrs) {
    events.push({
      at: mr.forkAt,
      run: () => {
        const free = modules.filter((m) => !locked.has(m.name))
        let module: ModuleRef
        if (free.length > 0 && rng.chance(0.8)) module = rng.pick(free)
        else {
          const base = rng.pick(modules.slice(0, spec.domain.modules.length))
          let name = `${base.name}${rng.pick(MODULE_SUFFIXES)}`
          while (locked.has(name) || modules.some((m) => m.name === name))
            name = `${base.name}${rng.pick(MODULE_SUFFIXES)}${rng.int(2, 9)}`
          module = { name, entity: base.entity }
          modules.push(module)
        }
        locked.add(module.name)
        mr.module = module
        const branch = HistoryPlan.fork(main)
        branches.set(mr, branch)
        const fns = [newFunction(rng, module.entity)]
        const summaryTitle = imperative(fns[0].summary)
        const issue = mr.issue
        mr.title = `${mr.draft ? 'Draft: ' : ''}${issue ? `Resolve "${issue.text.title}"` : summaryTitle}`
        let name = issue
          ? `${issueIid.get(issue)}-${branchSlug(issue.text.title)}`
          : `${rng.pick(['feature', 'fix', 'chore'])}/${branchSlug(summaryTitle)}`
        while (usedBranchNames.has(name)) name = `${name}-${rng.int(2, 9)}`
        usedBranchNames.add(name)
        mr.branch = name
        const commits = rng.int(1, 3)
        const times = Array.from({ length: commits }, () => at(rng, mr.forkAt + 20 * MINUTE, mr.pushAt - MINUTE)).sort(
          (a, b) => a - b,
        )
        for (let i = 0; i < commits; i++) {
          const files = new Map<string, string>()
          for (const p of [modulePath(language, pkg, module.name), testPath(language, module.name)])
            if (p !== null && branch.files.has(p)) files.set(p, branch.files.get(p) as string)
          let message: string
          if (i === 0) {
            addFunction(files, module, fns[0])
            message = `${summaryTitle.replace(/,.*$/, '')}\n\nAdds ${functionName(language, fns[0])} to ${module.name}.`
          } else {
            const fn = newFunction(rng, module.entity)
            fns.push(fn)
            addFunction(files, module, fn)
            message = rng.pick([
              `Add ${functionName(language, fn)}`,
              `Handle the empty case in ${module.name}`,
              `Cover ${functionName(language, fn)} with tests`,
            ])
          }
          history.commit(branch, times[i], sig(mr.author), message, changed(branch, files))
        }
        mr.fns = fns
        mr.files = [...branch.touched]
        moves.push({ at: mr.pushAt, ref: `refs/heads/${name}`, mark: branch.tip, tag: null, user: mr.author })
      },
    })
    if (mr.followUpAt !== null) {
      events.push({
        at: mr.followUpAt,
        run: () => {
          const branch = branches.get(mr) as Line
          const src = modulePath(language, pkg, (mr.module as ModuleRef).name)
          const current = branch.files.get(src) ?? ''
          const next = current.includes('PAGE_SIZE = 50')
            ? current.replace('PAGE_SIZE = 50', 'PAGE_SIZE = 100')
            : `${current}${language === 'markdown' ? '\nQuestions? Write to hello@kestrel.example.\n' : ''}`
          if (next === current) return
          history.commit(
            branch,
            mr.followUpAt as number,
            sig(mr.author),
            'Address review comments',
            new Map([[src, next]]),
          )
          moves.push({
            at: (mr.followUpAt as number) + MINUTE,
            ref: `refs/heads/${mr.branch}`,
            mark: branch.tip,
            tag: null,
            user: mr.author,
          })
        },
      })
    }
    if (mr.state === 'merged') {
      events.push({
        at: mr.endAt as number,
        run: () => {
          const branch = branches.get(mr) as Line
          const merger = mergerOf(mr)
          const message = `Merge branch '${mr.branch}' into 'main'\n\n${mr.title}\n\nSee merge request ${fullPath}!${mrIid.get(mr)}\n`
          mr.mergeMark = history.merge(main, branch, mr.endAt as number, sig(merger), message)
          locked.delete((mr.module as ModuleRef).name)
          mergedSinceRelease.push(mr.title as string)
        },
      })
    } else if (mr.state === 'closed') {
      events.push({ at: mr.endAt as number, run: () => locked.delete((mr.module as ModuleRef).name) })
    } else if (mr.conflicting) {
      const t = at(rng, mr.at + HOUR, now - 2 * HOUR)
      events.push({
        at: t,
        run: () => {
          // A hotfix on main touches the lines the branch changed: the merge request cannot be merged.
          const module = mr.module as ModuleRef
          const src = modulePath(language, pkg, module.name)
          const fn = newFunction(rng, module.entity)
          const files = new Map([
            [
              src,
              (main.files.get(src) ?? newModule(language, pkg, module.name, module.entity)) +
                functionSource(language, fn),
            ],
          ])
          history.commit(
            main,
            t,
            sig(rng.pick(devs.filter((u) => u !== mr.author && u !== 'root'))),
            `Hotfix: ${imperative(fn.summary).charAt(0).toLowerCase()}${imperative(fn.summary).slice(1)}`,
            files,
          )
          moves.push({ at: t + MINUTE, ref: 'refs/heads/main', mark: main.tip, tag: null, user: spec.creator })
        },
      })
    }
  }
  const mergerOf = (mr: DraftMr): string => {
    const others = devs.filter((u) => u !== mr.author && u !== 'root')
    return others.length > 0 ? rng.pick(others) : mr.author
  }

  // Releases at milestone due dates, each a version bump, a changelog section and a tag.
  const releases = c.milestones.filter(
    (m) => m.due !== null && (m.due as number) > firstAt + DAY && (m.due as number) < now,
  )
  releases.forEach((m, i) => {
    events.push({
      at: (m.due as number) + 15 * HOUR,
      run: () => {
        const version =
          spec.milestones === 'project'
            ? m.title.replace(/^v/, '')
            : `${3 + Math.floor((i + 3) / 10)}.${(i + 3) % 10}.0`
        const t = (m.due as number) + 15 * HOUR
        const changes = new Map<string, string>()
        const bump = versionBump(language, main.files, pkg, version)
        if (bump) changes.set(bump[0], bump[1])
        const lines =
          mergedSinceRelease.length > 0
            ? mergedSinceRelease.splice(0).map((title) => title.replace(/^Resolve "(.*)"$/, '$1'))
            : ['Maintenance release']
        changes.set('CHANGELOG.md', changelogEntry(main.files.get('CHANGELOG.md') ?? '', version, isoDate(t), lines))
        const releaser = spec.creator
        history.commit(main, t, sig(releaser), `Release ${version}`, changes)
        history.tag(main, `v${version}`, t + MINUTE, sig(releaser), `Release ${version}`)
        moves.push({ at: t + 2 * MINUTE, ref: 'refs/heads/main', mark: main.tip, tag: null, user: releaser })
        moves.push({ at: t + 3 * MINUTE, ref: `refs/tags/v${version}`, mark: null, tag: `v${version}`, user: releaser })
      },
    })
  })

  // Small direct commits: CI image bumps, README rows, ignore rules.
  const chores = rng.int(6, 12)
  for (let k = 0; k < chores; k++) {
    const t = at(rng, firstAt + DAY, now - 6 * HOUR)
    events.push({
      at: t,
      run: () => {
        const who = rng.pick(devs.filter((u) => u !== 'root'))
        const choice = rng.int(0, 2)
        let path: string
        let next: string
        let message: string
        if (choice === 0) {
          path = 'README.md'
          const variable = rng.pick([
            'REQUEST_TIMEOUT_MS',
            'DATABASE_POOL_SIZE',
            'SENTRY_DSN',
            'FEATURE_FLAGS',
            'CACHE_TTL_SECONDS',
            'METRICS_PORT',
          ])
          const current = main.files.get(path) ?? ''
          if (current.includes(variable)) return
          next = current
            .replace(
              '\n## Contributing',
              `| \`${variable}\` | ${rng.pick(['`30000`', '`10`', 'unset', '`9100`', '`300`'])} | ${rng.pick(['Documented after a support question', 'See the ops runbook', 'Only needed in production'])} |\n\n## Contributing`,
            )
            .replace('|\n\n| `', '|\n| `')
          message = `Document ${variable}`
        } else if (choice === 1) {
          path = '.gitlab-ci.yml'
          const current = main.files.get(path) ?? ''
          next = current.replace(/^image: (\S+?)(-\d+)?$/m, (_m, image: string) => `image: ${image}-${rng.int(1, 9)}`)
          message = 'CI: pin the image to a patch release'
        } else {
          path = '.gitignore'
          const entry = rng.pick(['.DS_Store', '.idea/', '*.log', '.vscode/', 'tmp/'])
          const current = main.files.get(path) ?? ''
          if (current.includes(entry)) return
          next = `${current}${entry}\n`
          message = `Ignore ${entry}`
        }
        if (next === main.files.get(path)) return
        history.commit(main, t, sig(who), message, new Map([[path, next]]))
        moves.push({ at: t + 2 * MINUTE, ref: 'refs/heads/main', mark: main.tip, tag: null, user: who })
      },
    })
  }
  events.sort((a, b) => a.at - b.at)
  for (const e of events) e.run()

  // --- merge requests as the replay opens them ----------------------------------------------
  const mrPlans: MergeRequestPlan[] = mrs.map((mr) => {
    const iid = mrIid.get(mr) as number
    const others = devs.filter((u) => u !== mr.author && u !== 'root')
    const reviewers = rng.sample(others, rng.int(1, Math.min(2, others.length)))
    if (mr.state === 'opened' && everyone.includes('root') && rng.chance(0.4)) reviewers.push('root')
    const end = mr.endAt ?? now - 5 * MINUTE
    const notes: NotePlan[] = []
    const fnName = functionName(language, (mr.fns as FunctionSpec[])[0])
    const file = (mr.files as string[])[0] ?? 'README.md'
    for (const reviewer of reviewers.filter((r) => r !== 'root')) {
      const threads = rng.int(0, 2)
      for (let k = 0; k < threads; k++) {
        const t = at(rng, mr.at + 30 * MINUTE, end - 20 * MINUTE)
        notes.push({
          at: t,
          author: reviewer,
          body: reviewComment(rng, spec.domain, file, fnName),
          thread: true,
          replies: [
            {
              at: Math.min(end - 5 * MINUTE, t + rng.int(10, 300) * MINUTE),
              author: mr.author,
              body: authorReply(rng),
            },
          ],
          awards: [],
        })
      }
    }
    if (rng.chance(0.3))
      notes.push({
        at: at(rng, mr.at + HOUR, end - 10 * MINUTE),
        author: rng.pick(everyone),
        body: rng.pick([
          'Looks great, thanks for picking this up!',
          'Will this make it into the release?',
          'Tested on staging, works for me.',
        ]),
        thread: false,
        replies: [],
        awards: [],
      })
    notes.sort((a, b) => a.at - b.at)
    const issue = mr.issue
    const labels = issue
      ? issue.labels.filter((l) => !l.startsWith('workflow::') && l !== 'security')
      : spec.labelSet === 'none'
        ? []
        : [hasGroupLabels ? rng.pick(['enhancement', 'tech debt', 'feature']) : 'enhancement']
    if (mr.state === 'opened' && hasGroupLabels) labels.push('workflow::in review')
    const merged = mr.state === 'merged'
    return {
      iid,
      at: mr.at,
      author: mr.author,
      title: mr.title as string,
      description: mergeRequestDescription(
        rng,
        `${(mr.fns as FunctionSpec[])[0].summary}.`,
        issue ? (issueIid.get(issue) as number) : null,
        mr.files as string[],
      ),
      branch: mr.branch as string,
      assignees: [mr.author],
      reviewers,
      labels: [...new Set(labels)],
      milestone: spec.milestones === 'none' ? null : milestoneAt(c.milestones, mr.endAt ?? Math.max(mr.at, now)),
      state: mr.state,
      end:
        mr.endAt !== null
          ? { at: mr.endAt, by: merged ? mergerOf(mr) : mr.author, mergeMark: mr.mergeMark ?? null }
          : null,
      removeSourceBranch: merged && rng.chance(0.85),
      approvals: merged
        ? reviewers
            .filter((r) => r !== 'root')
            .map((by) => ({ at: at(rng, (mr.endAt as number) - 3 * HOUR, (mr.endAt as number) - MINUTE), by }))
        : [],
      notes,
      awards: rng.chance(0.25)
        ? [
            {
              at: at(rng, mr.at, end),
              by: rng.pick(others.length > 0 ? others : everyone),
              name: rng.pick(['thumbsup', 'rocket', 'tada']),
            },
          ]
        : [],
      conflicting: mr.conflicting,
    }
  })

  const issues: IssuePlan[] = drafts.map((d) => {
    const { mr: _mr, ...rest } = d
    return { ...rest, iid: issueIid.get(d) as number }
  })
  return { spec, history, moves: moves.sort((a, b) => a.at - b.at), issues, mergeRequests: mrPlans }
}

/** Only the files whose content differs from the line's. */
function changed(line: Line, files: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>()
  for (const [path, content] of files) if (line.files.get(path) !== content) out.set(path, content)
  return out
}
