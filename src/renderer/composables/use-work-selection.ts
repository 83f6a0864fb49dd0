import { ref, shallowRef, watch, type Ref, type ShallowRef, type WatchSource } from 'vue'
import { useRouter } from 'vue-router'
import { useCommands } from './use-commands'
import { useItemWrites } from './use-item-writes'
import type { AccountItem, Issue, MergeRequest, UserRef } from '../lib/items'
import { useAccountsStore } from '../stores/accounts'
import { useItemStore } from '../stores/items'

type Work = Issue | MergeRequest

export interface WorkSelection<T extends Work> {
  readonly checked: ShallowRef<ReadonlyMap<string, AccountItem<T>>>
  readonly active: Ref<number>
  readonly list: Ref<{ scrollToIndex(index: number): void } | null>
  readonly busy: Ref<boolean>
  keyOf(row: AccountItem<T>): string
  hrefOf(row: AccountItem<T>): string
  toggle(row: AccountItem<T>): void
  clear(): void
  /** The bulk bar's actions over the checked rows, each with Undo in its toast. */
  close(): Promise<void>
  reopen(): Promise<void>
  addLabel(name: string): Promise<void>
  removeLabel(name: string): Promise<void>
  assignToMe(): Promise<void>
  /** What triage commands act on: the checked rows, else the highlighted one. */
  targets(): AccountItem<T>[]
}

/**
 * What the issue and merge request lists share: the checked rows and the bulk writes over them
 * (through the item stores, each one an outbox entry, with Undo), the keyboard cursor, and the
 * list commands (j, k, o, x).
 */
export function useWorkSelection<T extends Work>(
  kind: 'issue' | 'merge_request',
  rows: Readonly<ShallowRef<readonly (AccountItem<T> | undefined)[]>>,
  total: Readonly<ShallowRef<number>>,
  resetOn: WatchSource<unknown>,
): WorkSelection<T> {
  const router = useRouter()
  const accounts = useAccountsStore()
  const { write } = useItemWrites(kind)
  const checked = shallowRef<ReadonlyMap<string, AccountItem<T>>>(new Map())
  const active = ref(0)
  const list = ref<{ scrollToIndex(index: number): void } | null>(null)
  const busy = ref(false)
  const noun = kind === 'issue' ? 'issue' : 'merge request'
  const path = kind === 'issue' ? 'issues' : 'merge_requests'

  const keyOf = (row: AccountItem<T>): string => `${row.accountId}:${row.item.id}`
  const hrefOf = (row: AccountItem<T>): string =>
    `/a/${row.accountId}/projects/${row.item.project_id}/${path}/${row.item.iid}`

  watch(resetOn, () => {
    checked.value = new Map()
    active.value = 0
  })

  function toggle(row: AccountItem<T>): void {
    const next = new Map(checked.value)
    if (next.has(keyOf(row))) next.delete(keyOf(row))
    else next.set(keyOf(row), row)
    checked.value = next
  }

  /** One write per checked row, as the rows show now. */
  async function bulk(run: Parameters<typeof write>[1], what: string): Promise<void> {
    busy.value = true
    try {
      const targets = [...checked.value.values()].map((row) => ({
        accountId: row.accountId,
        item: useItemStore(row.accountId).show(kind, row.item),
      }))
      await write(targets, run, what)
    } finally {
      busy.value = false
    }
  }

  function me(accountId: string): UserRef | null {
    const account = accounts.accounts.find((a) => a.id === accountId)
    return account === undefined
      ? null
      : { id: account.userId, username: account.username, name: account.name, avatar_url: account.avatarUrl }
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
    keyOf,
    hrefOf,
    toggle,
    clear: () => void (checked.value = new Map()),
    close: () => bulk((store, t) => store.setState(kind, t.item, 'close'), 'Closed'),
    reopen: () => bulk((store, t) => store.setState(kind, t.item, 'reopen'), 'Reopened'),
    addLabel: (name) => bulk((store, t) => store.addLabels(kind, t.item, [name]), `Label ${name} added`),
    removeLabel: (name) => bulk((store, t) => store.removeLabels(kind, t.item, [name]), `Label ${name} removed`),
    assignToMe: () =>
      bulk((store, t) => {
        const user = me(t.accountId)
        return user === null ? Promise.resolve(null) : store.toggleAssignee(kind, t.item, user, true)
      }, 'Assigned to you'),
  }
}
