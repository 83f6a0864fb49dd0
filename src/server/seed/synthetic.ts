/**
 * The `synthetic` profile: large data sets for benchmarks (e.g. 10k issues and 2k merge requests
 * for the desktop sync, 100k issues for list queries). Users, the group, labels, milestones and
 * projects go through the services; issues, merge requests, notes, events and to-dos are bulk
 * inserted in one transaction as the rows those services write. Every merge request has a real
 * source branch with one commit on top of `main`.
 */
import type { ServerContext } from '../platform/context'
import { withClock } from '../platform/db/connection'
import type { NoteRow } from '../modules/notes/queries'
import type { NamespaceRow, ProjectRow, UserRow } from '../platform/db/rows'
import { BulkWriter } from '../platform/db/seed-queries'
import { findUserByUsername, insertUser, userRef, createUser } from '../modules/users'
import { hashPassword, randomPassword } from '../platform/auth/secrets'
import { eventNote } from '../modules/notes/entity'
import { projectGitDir } from '../platform/git/project-repo'
import { createGroup } from '../modules/groups'
import { createLabel } from '../modules/labels/service'
import { addMember, sourceOfRow } from '../modules/members'
import { createMilestone } from '../modules/milestones/service'
import { createProject } from '../modules/projects'
import { refreshRepositoryFlags } from '../modules/repository'
import { callerFor } from '../platform/caller'
import { createRefs, HistoryPlan, importHistory, type Signature } from './history'
import { DAY } from './plan'
import { Random } from './random'
import { issueComment, issueText, mergeRequestDescription, type IssueKind } from './text'
import { GROUP_LABELS, PROJECTS } from './world'

/** How much the synthetic profile writes. */
export interface SyntheticSize {
  readonly projects: number
  readonly issues: number
  readonly mergeRequests: number
  /** Comments on every issue and merge request. */
  readonly notesPerItem: number
  readonly users: number
}

export const DEFAULT_SYNTHETIC: SyntheticSize = {
  projects: 5,
  issues: 10_000,
  mergeRequests: 2_000,
  notesPerItem: 2,
  users: 50,
}

export interface SyntheticOptions {
  readonly seed: string
  readonly size: SyntheticSize
  /** The newest item is created just before this moment; the oldest a year earlier. */
  readonly now: Date
}

const YEAR = 365 * DAY

/** Splits `total` over `parts` as evenly as possible, the remainder going to the first ones. */
function spread(total: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0))
}

/** Writes a synthetic data set (see the module comment). */
export async function seedSynthetic(ctx: ServerContext, o: SyntheticOptions): Promise<void> {
  const { size } = o
  for (const [key, value] of Object.entries(size)) {
    if (!Number.isInteger(value) || value < 0)
      throw new Error(`synthetic ${key} must be a whole number ≥ 0, got ${value}`)
  }
  if (size.projects < 1 || size.users < 1) throw new Error('synthetic needs at least one project and one user')
  const rng = new Random(`synthetic/${o.seed}`)
  const now = Math.floor(o.now.getTime() / 1000) * 1000
  const origin = now - YEAR
  const iso = (t: number): string => new Date(t).toISOString()
  const baseUrl = ctx.baseUrl()
  let current = origin - DAY
  await withClock(
    () => new Date(current),
    async () => {
      let root = findUserByUsername(ctx.db, 'root')
      if (!root)
        root = insertUser(ctx.db, {
          username: 'root',
          name: 'Administrator',
          email: 'admin@example.com',
          password_hash: hashPassword(randomPassword()),
          is_admin: true,
        })
      const rootCaller = callerFor(ctx, root, { baseUrl, ip: '127.0.0.1' })
      const users: UserRow[] = [root]
      for (let i = 1; i <= size.users; i++) {
        const n = String(i).padStart(5, '0')
        users.push(
          createUser(rootCaller, {
            username: `synthetic-${n}`,
            name: `Synthetic User ${n}`,
            email: `synthetic-${n}@burrow.example`,
            force_random_password: true,
            skip_confirmation: true,
          }),
        )
      }
      const group: NamespaceRow = createGroup(callerFor(ctx, root, { baseUrl, ip: '127.0.0.1' }), {
        name: 'Synthetic',
        path: 'synthetic',
        parent: null,
        visibility: 'internal',
        description: 'Generated data for benchmarks.',
        params: {},
      })
      const groupSource = sourceOfRow(rootCaller, { source_type: 'Namespace', source_id: group.id })
      for (const u of users.slice(1)) addMember(rootCaller, groupSource, u, 30, null)
      const labels = GROUP_LABELS.map((l) =>
        createLabel(
          rootCaller,
          { groupId: group.id },
          { groupIds: [group.id], projectIds: [] },
          { name: l.title, color: l.color, description: l.description },
        ),
      )
      const milestones = [-90, -45, 0, 45].map((offset, i) => {
        const due = new Date(now + offset * DAY).toISOString().slice(0, 10)
        const start = new Date(now + (offset - 44) * DAY).toISOString().slice(0, 10)
        return createMilestone(
          rootCaller,
          { kind: 'group', group },
          { title: `Iteration ${i + 1}`, start_date: start, due_date: due },
          root.id,
        )
      })

      const issueCounts = spread(size.issues, size.projects)
      const mrCounts = spread(size.mergeRequests, size.projects)
      const projects: ProjectRow[] = []
      const heads: { main: string; branches: string[] }[] = []
      for (let p = 0; p < size.projects; p++) {
        const name = `Synthetic ${String(p + 1).padStart(3, '0')}`
        const project = await createProject(rootCaller, {
          name,
          path: `synthetic-${String(p + 1).padStart(3, '0')}`,
          namespace: group,
          creator: root,
          visibility: 'internal',
          description: 'Generated project.',
          params: {},
        })
        projects.push(project)
        heads.push(await writeRepository(ctx, project, rng, mrCounts[p], origin))
      }

      current = now
      const write = new BulkWriter(ctx.db)
      const users1 = users.slice(1)
      const person = (): UserRow => rng.pick(users1)
      const total = size.issues + size.mergeRequests
      const step = YEAR / Math.max(1, total)
      let slot = 0
      const nextTime = (): number => origin + Math.floor(step * slot++)
      ctx.db.transaction(() => {
        for (let p = 0; p < size.projects; p++) {
          const project = projects[p]
          const domain = PROJECTS[p % PROJECTS.length].domain
          const comments = (
            type: 'Issue' | 'MergeRequest',
            targetId: number,
            iid: number,
            title: string,
            from: number,
            component: string,
          ): void => {
            for (let k = 0; k < size.notesPerItem; k++) {
              const author = person()
              const at = iso(Math.min(now - 1000, from + (k + 1) * 3_600_000))
              const note = {
                type,
                targetId,
                projectId: project.id,
                authorId: author.id,
                body: issueComment(rng, domain, component),
                discussionId: rng.hex(40),
                at,
                targetTitle: title,
              }
              write.addNote(note, (id) => {
                const row: NoteRow = {
                  id,
                  noteable_type: type,
                  noteable_id: targetId,
                  project_id: project.id,
                  group_id: null,
                  author_id: author.id,
                  body: note.body,
                  type: null,
                  discussion_id: note.discussionId,
                  system: 0,
                  internal: 0,
                  resolvable: 0,
                  resolved_at: null,
                  resolved_by_id: null,
                  commit_id: null,
                  position: null,
                  original_position: null,
                  line_code: null,
                  created_at: at,
                  updated_at: at,
                }
                return eventNote(row, userRef(author, baseUrl), { iid })
              })
            }
          }
          for (let iid = 1; iid <= issueCounts[p]; iid++) {
            const created = nextTime()
            const kind: IssueKind = rng.weighted([
              ['bug', 4],
              ['feature', 4],
              ['chore', 1],
              ['docs', 1],
            ] as const)
            const text = issueText(rng, domain, kind, iid - 1, iso(created).replace('T', ' ').slice(0, 19))
            const author = person()
            const closed =
              created < now - 30 * DAY && rng.chance(0.6)
                ? { at: iso(Math.min(now - 1000, created + rng.int(1, 20) * DAY)), byId: person().id }
                : null
            const assignees = rng.chance(0.02) ? [root.id] : rng.chance(0.5) ? [person().id] : []
            const id = write.addIssue(
              {
                projectId: project.id,
                iid,
                authorId: author.id,
                title: text.title,
                description: text.description,
                milestoneId: rng.chance(0.5) ? rng.pick(milestones).id : null,
                weight: rng.chance(0.3) ? rng.pick([1, 2, 3, 5, 8]) : null,
                createdAt: iso(created),
                closed,
              },
              rng.sample(labels, rng.int(0, 3)).map((l) => l.id),
              assignees,
            )
            if (assignees.includes(root.id))
              write.addTodo({
                userId: root.id,
                authorId: author.id,
                projectId: project.id,
                targetType: 'Issue',
                targetId: id,
                action: 'assigned',
                body: text.title,
                at: iso(created),
              })
            comments('Issue', id, iid, text.title, created, text.component)
          }
          write.raiseIidCounter(project.id, 'issues', issueCounts[p])
          for (let iid = 1; iid <= mrCounts[p]; iid++) {
            const created = nextTime()
            const author = person()
            const state =
              created < now - 14 * DAY
                ? rng.weighted([
                    ['merged', 8],
                    ['closed', 1],
                    ['opened', 1],
                  ] as const)
                : 'opened'
            const ended = state === 'opened' ? null : Math.min(now - 1000, created + rng.int(1, 10) * DAY)
            const title = `${rng.pick(['Add', 'Fix', 'Refactor', 'Speed up', 'Document'])} ${rng.pick(domain.components).toLowerCase()} (${iid})`
            const reviewers = rng.chance(0.03) ? [root.id] : [person().id]
            const id = write.addMergeRequest(
              {
                projectId: project.id,
                iid,
                authorId: author.id,
                title,
                description: mergeRequestDescription(rng, 'Generated change.', null, []),
                sourceBranch: `mr-${iid}`,
                headSha: heads[p].branches[iid - 1],
                baseSha: heads[p].main,
                milestoneId: rng.chance(0.5) ? rng.pick(milestones).id : null,
                createdAt: iso(created),
                state,
                endedAt: ended === null ? null : iso(ended),
                endedById: ended === null ? null : person().id,
              },
              rng.sample(labels, rng.int(0, 2)).map((l) => l.id),
              [author.id],
              reviewers,
            )
            if (reviewers.includes(root.id) && state === 'opened')
              write.addTodo({
                userId: root.id,
                authorId: author.id,
                projectId: project.id,
                targetType: 'MergeRequest',
                targetId: id,
                action: 'review_requested',
                body: '',
                at: iso(created),
              })
            comments('MergeRequest', id, iid, title, created, rng.pick(domain.components))
          }
          write.raiseIidCounter(project.id, 'merge_requests', mrCounts[p])
        }
        write.touchProjects(projects.map((p) => p.id))
      })()
    },
  )
}

/** A repository with a few commits on `main` and one branch `mr-N` per merge request, each one commit ahead. */
async function writeRepository(
  ctx: ServerContext,
  project: ProjectRow,
  rng: Random,
  mergeRequests: number,
  origin: number,
): Promise<{ main: string; branches: string[] }> {
  const plan = new HistoryPlan()
  const main = HistoryPlan.emptyLine()
  const who: Signature = { name: 'Administrator', email: 'admin@example.com' }
  plan.commit(
    main,
    origin,
    who,
    'Initial commit',
    new Map([
      ['README.md', `# ${project.name}\n\nGenerated for benchmarks.\n`],
      ['src/index.ts', 'export const answer = 42\n'],
    ]),
  )
  plan.commit(main, origin + 3_600_000, who, 'Add a changelog', new Map([['CHANGELOG.md', '# Changelog\n']]))
  const branchMarks: number[] = []
  for (let i = 1; i <= mergeRequests; i++) {
    const branch = HistoryPlan.fork(main)
    branchMarks.push(
      plan.commit(
        branch,
        origin + 7_200_000 + i * 1000,
        who,
        `Change ${i}`,
        new Map([[`changes/mr-${i}.md`, `Change ${i}: ${rng.hex(12)}\n`]]),
      ),
    )
  }
  const gitDir = projectGitDir(ctx, project)
  const imported = await importHistory(gitDir, plan)
  const mainSha = imported.commits.get(main.tip as number) as string
  const branches = branchMarks.map((m) => imported.commits.get(m) as string)
  await createRefs(
    gitDir,
    new Map([
      ['refs/heads/main', mainSha],
      ...branches.map((sha, i): [string, string] => [`refs/heads/mr-${i + 1}`, sha]),
    ]),
  )
  await refreshRepositoryFlags(ctx, project)
  return { main: mainSha, branches }
}
