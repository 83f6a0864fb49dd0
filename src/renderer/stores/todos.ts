import { defineStore } from 'pinia'
import { computed, shallowRef } from 'vue'
import type { OutboxEntry } from '../../shared/ipc/outbox'
import { useBridge } from '../bridge'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'
import { asTodo, type AccountItem, type Todo } from '../lib/items'
import { useCacheChangesStore } from './cache-changes'

/** An issue or merge request a to-do points at. */
export interface TodoTargetRef {
  readonly kind: 'issue' | 'merge_request'
  readonly projectId: number
  readonly iid: number
}

const TARGET_TYPE = { issue: 'Issue', merge_request: 'MergeRequest' } as const

/** Whether a to-do points at the item. */
function pointsAt(todo: Todo, target: TodoTargetRef): boolean {
  const projectId = todo.project?.id ?? todo.target?.project_id
  return (
    todo.target_type === TARGET_TYPE[target.kind] && projectId === target.projectId && todo.target?.iid === target.iid
  )
}

/**
 * The signed-in users' pending to-dos, per account, read from the cache (which sync and the
 * to-do watcher keep current) — the one source of every to-do count and list in the app: home,
 * the to-do page, the sidebars' "Add a to-do" / "Mark as done". It also owns the to-do writes:
 * a to-do marked done leaves every count at once, and one added shows at once on its item.
 */
export const useTodosStore = defineStore('todos', () => {
  const bridge = useBridge()
  const byAccount = shallowRef<Readonly<Record<string, readonly AccountItem<Todo>[]>>>({})
  /** To-dos the user resolved here that the cache may still list (a merge resolves them on the server). */
  const resolved = shallowRef<ReadonlySet<string>>(new Set())
  /** Items the user just added a to-do to, until the cache lists it. */
  const added = shallowRef<ReadonlySet<string>>(new Set())
  /** Why an account's to-dos could not be read, by account. */
  const errors = shallowRef<Readonly<Record<string, ReadableError>>>({})
  const inFlight = new Map<string, Promise<void>>()
  const todoKey = (accountId: string, id: number): string => `${accountId}:${id}`
  const itemKey = (accountId: string, t: TodoTargetRef): string => `${accountId}:${t.kind}:${t.projectId}:${t.iid}`

  useCacheChangesStore().watchCache(
    () => Object.keys(byAccount.value),
    ['todo'],
    (changed) => changed.forEach((id) => void reload(id)),
  )

  /** Reads the account's pending to-dos from the cache; a failure is kept in `errors`, never thrown. */
  async function reload(accountId: string): Promise<void> {
    let rows: AccountItem<Todo>[]
    try {
      rows = (await bridge.request('todos:list', accountId, { state: 'pending' })).map((cached) => ({
        accountId,
        item: asTodo(cached.data),
        pending: cached.pending,
      }))
    } catch (e) {
      errors.value = { ...errors.value, [accountId]: toReadableError(e) }
      return
    }
    const { [accountId]: _gone, ...otherErrors } = errors.value
    errors.value = otherErrors
    byAccount.value = { ...byAccount.value, [accountId]: rows }
    // What the cache lists now supersedes what the app assumed.
    const listed = new Set(rows.map((r) => todoKey(accountId, r.item.id)))
    resolved.value = new Set([...resolved.value].filter((k) => !k.startsWith(`${accountId}:`) || listed.has(k)))
    added.value = new Set([...added.value].filter((k) => !rows.some((r) => itemKey(accountId, targetOf(r.item)) === k)))
  }

  /** Loads an account's to-dos unless they are loaded or loading (an account whose read failed is tried again). */
  function ensure(accountId: string): Promise<void> {
    if (byAccount.value[accountId] !== undefined) return Promise.resolve()
    let loading = inFlight.get(accountId)
    if (loading === undefined) {
      loading = reload(accountId).finally(() => inFlight.delete(accountId))
      inFlight.set(accountId, loading)
    }
    return loading
  }

  /** Pending to-dos of the accounts, newest first. */
  function pending(accountIds: readonly string[]): AccountItem<Todo>[] {
    return accountIds
      .flatMap((id) => byAccount.value[id] ?? [])
      .filter((r) => !resolved.value.has(todoKey(r.accountId, r.item.id)))
      .sort((a, b) => b.item.created_at.localeCompare(a.item.created_at))
  }

  /** Whether the user has a pending to-do on the item (added here and not listed yet included). */
  function hasTodo(accountId: string, target: TodoTargetRef): boolean {
    return added.value.has(itemKey(accountId, target)) || pendingFor(accountId, target) !== undefined
  }
  function pendingFor(accountId: string, target: TodoTargetRef): AccountItem<Todo> | undefined {
    return pending([accountId]).find((r) => pointsAt(r.item, target))
  }

  /** Marks a to-do done: gone from every count at once, queued in the outbox for the server. */
  async function markDone(accountId: string, todoId: number): Promise<OutboxEntry> {
    const key = todoKey(accountId, todoId)
    resolved.value = new Set([...resolved.value, key])
    try {
      return await bridge.request('todos:mark-done', accountId, { todoId })
    } catch (error) {
      resolved.value = new Set([...resolved.value].filter((k) => k !== key))
      throw error
    }
  }

  /** Marks the user's to-do on an item done (the sidebar's "Mark as done"). */
  async function markDoneFor(accountId: string, target: TodoTargetRef): Promise<void> {
    const todo = pendingFor(accountId, target)
    if (todo !== undefined && todo.item.id > 0) await markDone(accountId, todo.item.id)
  }

  /** Adds a to-do for the user on an item (GitLab's "Add a to-do"), shown at once. */
  async function add(accountId: string, target: TodoTargetRef): Promise<OutboxEntry> {
    const key = itemKey(accountId, target)
    added.value = new Set([...added.value, key])
    try {
      const request = { projectId: target.projectId, iid: target.iid }
      return target.kind === 'issue'
        ? await bridge.request('issues:todo', accountId, request)
        : await bridge.request('merge-requests:todo', accountId, request)
    } catch (error) {
      added.value = new Set([...added.value].filter((k) => k !== key))
      throw error
    }
  }

  /** The server resolved the user's to-dos on these items (a merge, a close): they leave the counts now. */
  function resolveFor(accountId: string, targets: readonly TodoTargetRef[]): void {
    const gone = (byAccount.value[accountId] ?? [])
      .filter((r) => targets.some((t) => pointsAt(r.item, t)))
      .map((r) => todoKey(accountId, r.item.id))
    if (gone.length > 0) resolved.value = new Set([...resolved.value, ...gone])
  }

  /**
   * Asks the server for the account's pending to-dos now (the watcher writes them into the
   * cache); from then on the server's list is what counts, not what `resolveFor` assumed.
   */
  async function refresh(accountId: string): Promise<void> {
    try {
      await bridge.request('notify:check', accountId)
    } catch {
      // No watcher in this launch, or the server cannot be reached: the next check or sync brings them.
      return
    }
    await reload(accountId)
    resolved.value = new Set([...resolved.value].filter((k) => !k.startsWith(`${accountId}:`)))
  }

  const loadedAccounts = computed(() => Object.keys(byAccount.value))
  return {
    byAccount,
    errors,
    loadedAccounts,
    ensure,
    reload,
    pending,
    hasTodo,
    markDone,
    markDoneFor,
    add,
    resolveFor,
    refresh,
  }
})

function targetOf(todo: Todo): TodoTargetRef {
  return {
    kind: todo.target_type === 'MergeRequest' ? 'merge_request' : 'issue',
    projectId: todo.project?.id ?? todo.target?.project_id ?? 0,
    iid: todo.target?.iid ?? 0,
  }
}
