import { ref, shallowRef, watch, type Ref, type ShallowRef, type WatchSource } from 'vue'
import { useRouter } from 'vue-router'
import { useBridge } from '../bridge'
import { useCommands } from './use-commands'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'
import type { AccountItem, Issue, MergeRequest } from '../lib/items'
import type { ItemChanges } from '../../shared/ipc/outbox'
import { useAccountsStore } from '../stores/accounts'

type Work = Issue | MergeRequest

export interface WorkSelection<T extends Work> {
  readonly checked: ShallowRef<ReadonlyMap<string, AccountItem<T>>>
  readonly active: Ref<number>
  readonly list: Ref<{ scrollToIndex(index: number): void } | null>
  readonly busy: Ref<boolean>
  readonly notice: Ref<string | null>
  readonly error: Ref<ReadableError | null>
  keyOf(row: AccountItem<T>): string
  hrefOf(row: AccountItem<T>): string
  toggle(row: AccountItem<T>): void
  clear(): void
  apply(changes: ItemChanges, what: string): Promise<void>
  assignToMe(): Promise<void>
  /** What triage commands act on: the checked rows, else the highlighted one. */
  targets(): AccountItem<T>[]
}

/**
 * What the issue and merge request lists share: the checked rows and the bulk writes over them
 * (each one an outbox entry), the keyboard cursor, and the list commands (j, k, o, x).
 */
export function useWorkSelection<T extends Work>(kind: 'issue' | 'merge_request', rows: Readonly<ShallowRef<readonly (AccountItem<T> | undefined)[]>>, total: Readonly<ShallowRef<number>>, resetOn: WatchSource<unknown>): WorkSelection<T> {
  const bridge = useBridge()
  const router = useRouter()
  const accounts = useAccountsStore()
  const checked = shallowRef<ReadonlyMap<string, AccountItem<T>>>(new Map())
  const active = ref(0)
  const list = ref<{ scrollToIndex(index: number): void } | null>(null)
  const busy = ref(false)
  const notice = ref<string | null>(null)
  const error = ref<ReadableError | null>(null)
  const noun = kind === 'issue' ? 'issue' : 'merge request'
  const path = kind === 'issue' ? 'issues' : 'merge_requests'

  const keyOf = (row: AccountItem<T>): string => `${row.accountId}:${row.item.id}`
  const hrefOf = (row: AccountItem<T>): string => `/a/${row.accountId}/projects/${row.item.project_id}/${path}/${row.item.iid}`

  watch(resetOn, () => {
    checked.value = new Map()
    active.value = 0
    notice.value = null
  })

  function toggle(row: AccountItem<T>): void {
    const next = new Map(checked.value)
    if (next.has(keyOf(row))) next.delete(keyOf(row))
    else next.set(keyOf(row), row)
    checked.value = next
  }

  async function applyEach(changesFor: (row: AccountItem<T>) => ItemChanges, what: string): Promise<void> {
    busy.value = true
    error.value = null
    const targets = [...checked.value.values()]
    const channel = kind === 'issue' ? 'issues:update' : 'merge-requests:update'
    const results = await Promise.allSettled(targets.map((row) => bridge.request(channel, row.accountId, { projectId: row.item.project_id, iid: row.item.iid, changes: changesFor(row) })))
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    busy.value = false
    notice.value = `${targets.length - failed.length} of ${targets.length} ${what}: queued, they go out in order.`
    if (failed.length > 0) error.value = toReadableError(failed[0].reason)
  }

  function move(delta: number): void {
    if (total.value === 0) return
    active.value = Math.min(total.value - 1, Math.max(0, active.value + delta))
    list.value?.scrollToIndex(active.value)
  }

  useCommands(
    { id: `${kind}.list.next`, title: `Next ${noun}`, group: 'List', keys: 'j', run: () => move(1) },
    { id: `${kind}.list.previous`, title: `Previous ${noun}`, group: 'List', keys: 'k', run: () => move(-1) },
    {
      id: `${kind}.list.open`,
      title: `Open the highlighted ${noun}`,
      group: 'List',
      keys: 'o',
      run: () => {
        const row = rows.value[active.value]
        if (row) void router.push(hrefOf(row))
      },
    },
    {
      id: `${kind}.list.select`,
      title: `Select or unselect the highlighted ${noun}`,
      group: 'List',
      keys: 'x',
      run: () => {
        const row = rows.value[active.value]
        if (row) toggle(row)
      },
    },
  )

  function targets(): AccountItem<T>[] {
    if (checked.value.size > 0) return [...checked.value.values()]
    const row = rows.value[active.value]
    return row ? [row] : []
  }

  return {
    targets,
    checked,
    active,
    list,
    busy,
    notice,
    error,
    keyOf,
    hrefOf,
    toggle,
    clear: () => void (checked.value = new Map()),
    apply: (changes, what) => applyEach(() => changes, what),
    assignToMe: () =>
      applyEach((row) => {
        const me = accounts.accounts.find((a) => a.id === row.accountId)?.userId
        const ids = new Set(row.item.assignees.map((a) => a.id))
        if (me !== undefined) ids.add(me)
        return { assignee_ids: [...ids] }
      }, 'assigned to you'),
  }
}
