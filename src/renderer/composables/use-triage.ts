import { useRouter } from 'vue-router'
import { useBridge } from '../bridge'
import { useCommands } from './use-commands'
import { useItemWrites } from './use-item-writes'
import {
  asEpic,
  asLabel,
  asMilestone,
  milestoneFitsProject,
  type Epic,
  type Issue,
  type MergeRequest,
  type Milestone,
} from '../lib/items'
import { formatDay } from '../lib/dates'
import { expectLabel } from '../lib/label-feedback'
import { perfCancel, perfStart, PERF } from '../lib/perf'
import { useAccountsStore } from '../stores/accounts'
import { useItemStore } from '../stores/items'
import { useOutboxStore } from '../stores/outbox'
import { useReferenceDataStore } from '../stores/reference-data'
import { useSyncStore } from '../stores/sync'
import { useToastsStore } from '../stores/toasts'
import { useTriagePickerStore, type PickerOption } from '../stores/triage-picker'

/** An issue or merge request a triage command acts on. */
export interface TriageTarget {
  readonly accountId: string
  readonly item: Issue | MergeRequest
}

export interface TriageOptions {
  readonly kind: 'issue' | 'merge_request'
  /** What the commands act on now: a detail page's item, or a list's selected rows (else its highlighted row). */
  readonly targets: () => readonly TriageTarget[]
  /** `c` on a detail page: focus its comment box instead of opening the picker. */
  readonly focusComment?: () => void
  /** Where a moved issue went (a detail page follows it). */
  readonly onMoved?: (accountId: string, moved: { readonly project_id: number; readonly iid: number }) => void
}

/** The triage actions, for buttons of a view; the same as its shortcuts run. */
export interface TriageActions {
  label(): Promise<void>
  assign(): Promise<void>
  milestone(): Promise<void>
  /** Issues only: put them in another epic, or take them out of theirs. */
  epic(): Promise<void>
  closeOrReopen(): Promise<void>
  comment(): Promise<void>
  move(): Promise<void>
}

/**
 * The triage commands of the issue and merge request views, with their shortcuts: label (l),
 * assign (a), milestone (m), close or reopen (shift+c), comment (c) and, for issues, epic
 * (shift+e) and move to another project (shift+m). Each write goes through the account's item
 * store (shown at once, then queued in the outbox); a toast says what was done and offers Undo
 * for a few seconds. A move needs the server and is refused offline with the reason.
 */
export function useTriage(options: TriageOptions): TriageActions {
  const bridge = useBridge()
  const router = useRouter()
  const picker = useTriagePickerStore()
  const toasts = useToastsStore()
  const { write, sayRefused, settle } = useItemWrites(options.kind)
  const reference = useReferenceDataStore()
  const accounts = useAccountsStore()
  const sync = useSyncStore()
  const outbox = useOutboxStore()
  const kind = options.kind
  const noun = kind === 'issue' ? 'issue' : 'merge request'
  const sigil = options.kind === 'issue' ? '#' : '!'
  /** The targets as they are on screen, writes not yet confirmed included. */
  const onScreen = (): TriageTarget[] =>
    options.targets().map((t) => ({ accountId: t.accountId, item: useItemStore(t.accountId).show(kind, t.item) }))
  const some = (): boolean => options.targets().length > 0

  function subject(targets: readonly TriageTarget[]): string {
    if (targets.length === 1)
      return `${targets[0].item.references?.full ?? `${sigil}${targets[0].item.iid}`} · ${targets[0].item.title}`
    return `${targets.length} ${noun}s`
  }

  /** The one account of the targets, for pickers whose choices belong to an account (labels, people). */
  function soleAccount(targets: readonly TriageTarget[]): string | null {
    const ids = new Set(targets.map((t) => t.accountId))
    if (ids.size !== 1) {
      toasts.show('warning', 'Select items of one account at a time for this.')
      return null
    }
    return targets[0].accountId
  }

  /** The group path a project lives in (`kestrel/tools` for `kestrel/tools/app`), once the account's projects are known. */
  function namespaceOf(accountId: string, projectId: number): string | null {
    const path = reference.of(accountId).projectsById.get(projectId)?.path_with_namespace
    return path === undefined ? null : path.slice(0, path.lastIndexOf('/'))
  }

  const soleProject = (targets: readonly TriageTarget[]): number | null =>
    new Set(targets.map((t) => t.item.project_id)).size === 1 ? targets[0].item.project_id : null

  async function label(): Promise<void> {
    const targets = onScreen()
    const accountId = soleAccount(targets)
    if (accountId === null) return
    const projectId = soleProject(targets)
    const has = (name: string): boolean => targets.every((t) => t.item.labels.includes(name))
    perfStart(PERF.labelPickerOpen)
    const name = await picker.choose({
      title: 'Labels',
      subject: subject(targets),
      mode: 'choose',
      placeholder: 'Add or remove a label…',
      options: async () => {
        const labels =
          projectId !== null
            ? (await bridge.request('labels:list', accountId, { project_id: projectId })).map(asLabel)
            : [...reference.of(accountId).labels.values()]
        return labels.map((l): PickerOption => ({
          value: l.name,
          label: l.name,
          detail: l.description ?? undefined,
          color: l.color,
          checked: has(l.name),
        }))
      },
    })
    perfCancel(PERF.labelPickerOpen)
    if (name === null) return
    const present = !has(name)
    if (targets.length === 1) expectLabel(accountId, targets[0].item.id, name, present, picker.lastChosenAt())
    await write(
      targets,
      (store, t) => (present ? store.addLabels(kind, t.item, [name]) : store.removeLabels(kind, t.item, [name])),
      present ? `Label ${name} added` : `Label ${name} removed`,
    )
  }

  async function assign(): Promise<void> {
    const targets = onScreen()
    const accountId = soleAccount(targets)
    if (accountId === null) return
    await reference.ensure(accountId)
    const me = accounts.accounts.find((a) => a.id === accountId)
    const assigned = (id: number): boolean => targets.every((t) => t.item.assignees.some((a) => a.id === id))
    const users = reference.of(accountId).users
    const people = users.map((u): PickerOption => ({
      value: String(u.id),
      label: u.name,
      detail: `@${u.username}${u.id === me?.userId ? ' · you' : ''}`,
      checked: assigned(u.id),
    }))
    // You first: assigning oneself is the most common triage move.
    people.sort((a, b) => Number(b.value === String(me?.userId)) - Number(a.value === String(me?.userId)))
    const value = await picker.choose({
      title: 'Assignees',
      subject: subject(targets),
      mode: 'choose',
      placeholder: 'Assign or unassign someone…',
      options: [{ value: 'none', label: 'Unassign everyone' }, ...people],
    })
    if (value === null) return
    if (value === 'none') return write(targets, (store, t) => store.setAssignees(kind, t.item, []), 'Unassigned')
    const user = users.find((u) => u.id === Number(value))
    if (user === undefined) return
    const add = !assigned(user.id)
    return write(
      targets,
      (store, t) => store.toggleAssignee(kind, t.item, user, add),
      add ? `Assigned ${user.name}` : `Unassigned ${user.name}`,
    )
  }

  async function milestone(): Promise<void> {
    const targets = onScreen()
    const accountId = soleAccount(targets)
    if (accountId === null) return
    const projectId = soleProject(targets)
    const current = new Set(targets.map((t) => t.item.milestone?.id ?? 0))
    await reference.ensure(accountId)
    const offered = new Map<number, Milestone>()
    const value = await picker.choose({
      title: 'Milestone',
      subject: subject(targets),
      mode: 'choose',
      placeholder: 'Set the milestone…',
      options: async () => {
        const list = await bridge.request('milestones:list', accountId, { state: 'active' })
        // The project's own milestones and those of its group and the groups above it, as GitLab offers.
        const namespace = projectId === null ? null : namespaceOf(accountId, projectId)
        const fits = (m: Milestone): boolean => projectId === null || milestoneFitsProject(m, projectId, namespace)
        const milestones = list.map((m) => asMilestone(m.data)).filter(fits)
        for (const m of milestones) offered.set(m.id, m)
        const only = current.size === 1 ? [...current][0] : -1
        return [
          { value: '0', label: 'No milestone', checked: only === 0 },
          ...milestones.map((m): PickerOption => ({
            value: String(m.id),
            label: m.title,
            detail: m.due_date ? `due ${formatDay(m.due_date)}` : undefined,
            checked: only === m.id,
          })),
        ]
      },
    })
    if (value === null) return
    const chosen = offered.get(Number(value)) ?? null
    await write(
      targets,
      (store, t) => store.setMilestone(kind, t.item, chosen),
      chosen === null ? 'Milestone removed' : `Milestone ${chosen.title} set`,
    )
  }

  async function epic(): Promise<void> {
    const targets = onScreen()
    const accountId = soleAccount(targets)
    if (accountId === null) return
    await reference.ensure(accountId)
    // An issue can be in an epic of its project's group or of a group above it: only epics every target can join.
    const namespaces = targets.map((t) => namespaceOf(accountId, t.item.project_id))
    const fits = (groupPath: string): boolean =>
      namespaces.every((ns) => ns !== null && (ns === groupPath || ns.startsWith(`${groupPath}/`)))
    const current = new Set(targets.map((t) => (t.item as Issue).epic?.id ?? 0))
    const only = current.size === 1 ? [...current][0] : -1
    const offered = new Map<number, Epic>()
    const value = await picker.choose({
      title: 'Epic',
      subject: subject(targets),
      mode: 'choose',
      placeholder: 'Put in an epic…',
      options: async () => {
        const list = await bridge.request('epics:list', accountId, {
          state: 'opened',
          limit: 500,
          order_by: 'title',
          sort: 'asc',
        })
        const epics = list.items
          .map((i) => asEpic(i.data))
          .filter((e) => fits((e.references?.full ?? '').split('&')[0]))
        for (const e of epics) offered.set(e.id, e)
        return [
          { value: '0', label: 'No epic', checked: only === 0 },
          ...epics.map((e): PickerOption => ({
            value: String(e.id),
            label: e.title,
            detail: e.references?.full ?? `&${e.iid}`,
            checked: only === e.id,
          })),
        ]
      },
    })
    if (value === null) return
    const chosen = offered.get(Number(value))
    const epic =
      chosen === undefined ? null : { id: chosen.id, iid: chosen.iid, title: chosen.title, group_id: chosen.group_id }
    await write(
      targets,
      (store, t) => store.setEpic(t.item as Issue, epic),
      epic === null ? 'Taken out of the epic' : `Put in &${epic.iid} ${epic.title}`,
    )
  }

  async function closeOrReopen(): Promise<void> {
    const targets = onScreen().filter((t) => t.item.state === 'opened' || t.item.state === 'closed')
    // Any open one among them: closing is the triage move; otherwise they are all closed and reopen.
    const close = targets.some((t) => t.item.state === 'opened')
    await write(
      targets,
      (store, t) => store.setState(kind, t.item, close ? 'close' : 'reopen'),
      close ? 'Closed' : 'Reopened',
    )
  }

  async function comment(): Promise<void> {
    if (options.focusComment) return options.focusComment()
    const targets = onScreen()
    const body = await picker.choose({
      title: 'Comment',
      subject: subject(targets),
      mode: 'text',
      placeholder: 'Write a comment (Markdown). It is kept and sent when the server is reachable.',
    })
    if (body === null || body.trim() === '') return
    const writes = targets.map((t) => useItemStore(t.accountId).comment(kind, t.item, body.trim()))
    await settle(writes, targets.length === 1 ? 'Comment queued.' : `Comment queued on ${targets.length} ${noun}s.`)
  }

  function hostOf(accountId: string): string {
    const url = accounts.accounts.find((a) => a.id === accountId)?.baseUrl ?? accountId
    try {
      return new URL(url).host
    } catch {
      return url
    }
  }

  async function move(): Promise<void> {
    const targets = onScreen()
    const accountId = soleAccount(targets)
    if (accountId === null) return
    await reference.ensure(accountId)
    const from = new Set(targets.map((t) => t.item.project_id))
    const offline = sync.isOffline(accountId)
    // Writes still in the outbox name the issue by project and number, which a move changes:
    // they would land on the closed old issue. They go out (or are settled) first.
    const unsent = targets.reduce(
      (n, t) => n + outbox.forItem(accountId, 'issue', t.item.project_id, t.item.iid).length,
      0,
    )
    const value = await picker.choose({
      title: 'Move to another project',
      subject: subject(targets),
      mode: 'choose',
      placeholder: 'Project to move to…',
      blocked: offline
        ? `Moving needs ${hostOf(accountId)}, which cannot be reached now. A move is not kept for later: the server gives the issue a new number in the other project and closes this one, and changes queued meanwhile would still point at the old one.`
        : unsent > 0
          ? `${unsent} ${unsent === 1 ? 'change' : 'changes'} to ${targets.length === 1 ? 'this issue' : 'these issues'} ${unsent === 1 ? 'is' : 'are'} still in the outbox. A move gives the issue a new number in the other project and closes this one, so they would land on the old issue: move it once they are sent, or settle them in the outbox first.`
          : null,
      options: reference
        .of(accountId)
        .projects.filter((p) => !from.has(p.id))
        .map((p): PickerOption => ({
          value: String(p.id),
          label: p.name_with_namespace,
          detail: p.path_with_namespace,
        })),
    })
    if (value === null) return
    const toProjectId = Number(value)
    let last: { project_id: number; iid: number } | null = null
    for (const t of targets) {
      try {
        last = await useItemStore(accountId).move(t.item as Issue, toProjectId)
      } catch (error) {
        sayRefused(error)
        return
      }
    }
    if (last === null) return
    const project =
      reference.of(accountId).projectsById.get(toProjectId)?.path_with_namespace ?? `project ${toProjectId}`
    toasts.show(
      'success',
      targets.length === 1 ? `Moved to ${project}#${last.iid}.` : `${targets.length} issues moved to ${project}.`,
    )
    if (options.onMoved) options.onMoved(accountId, last)
    else if (targets.length === 1) void router.push(`/a/${accountId}/projects/${last.project_id}/issues/${last.iid}`)
  }

  const group = options.kind === 'issue' ? 'Issue' : 'Merge request'
  useCommands(
    {
      id: `${options.kind}.triage.label`,
      title: 'Labels…',
      group,
      keys: 'l',
      keywords: 'label add remove tag',
      enabled: some,
      run: label,
    },
    {
      id: `${options.kind}.triage.assign`,
      title: 'Assignees…',
      group,
      keys: 'a',
      keywords: 'assign unassign people me',
      enabled: some,
      run: assign,
    },
    {
      id: `${options.kind}.triage.milestone`,
      title: 'Milestone…',
      group,
      keys: 'm',
      keywords: 'milestone iteration release',
      enabled: some,
      run: milestone,
    },
    {
      id: `${options.kind}.triage.close`,
      title: `Close or reopen the ${noun}`,
      group,
      keys: 'shift+c',
      keywords: 'close reopen state done',
      enabled: some,
      run: closeOrReopen,
    },
    {
      id: `${options.kind}.triage.comment`,
      title: 'Comment…',
      group,
      keys: 'c',
      keywords: 'comment note reply write',
      enabled: some,
      run: comment,
    },
    ...(options.kind === 'issue'
      ? [
          {
            id: 'issue.triage.epic',
            title: 'Epic…',
            group,
            keys: 'shift+e',
            keywords: 'epic move parent roadmap',
            enabled: some,
            run: epic,
          },
          {
            id: 'issue.triage.move',
            title: 'Move to another project…',
            group,
            keys: 'shift+m',
            keywords: 'move transfer project',
            enabled: some,
            run: move,
          },
        ]
      : []),
  )
  return { label, assign, milestone, epic, closeOrReopen, comment, move }
}
