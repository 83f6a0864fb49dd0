import { computed, ref, watch, type ComputedRef, type Ref, type ShallowRef } from 'vue'
import { useRoute, useRouter } from 'vue-router'
import { useBridge } from '../bridge'
import type { ReadableError } from '../lib/ipc-errors'
import { asIssue, asMergeRequest, type Issue, type MergeRequest } from '../lib/items'
import type { CachedDetail, CachedWire, GetOptions } from '../../shared/ipc/cache'
import type { Reference } from '../lib/markdown'
import { noteShownLabels } from '../lib/label-feedback'
import { setTask } from '../lib/task-list'
import { creationEntryOf, isTemporaryIid, type ItemChanges, type OutboxEntry } from '../../shared/ipc/outbox'
import { useItemStore, type ItemWrite } from '../stores/items'
import { useOutboxStore } from '../stores/outbox'
import { useReferenceDataStore } from '../stores/reference-data'
import { useIpcError } from './use-ipc-error'
import { useItemDetail, type ItemDetail } from './use-item-detail'
import { useReferenceResolver } from './use-reference-resolver'

type WorkKind = 'issue' | 'merge_request'
type WorkOf<K extends WorkKind> = K extends 'issue' ? Issue : MergeRequest

/** How each kind's cached JSON reads as the page's item. */
const READ: { readonly [K in WorkKind]: (data: CachedWire[K]) => WorkOf<K> } = {
  issue: asIssue,
  merge_request: asMergeRequest,
}

export interface WorkDetail<K extends WorkKind, T extends Issue | MergeRequest = WorkOf<K>> extends ItemDetail<K> {
  readonly accountId: ComputedRef<string>
  readonly projectId: ComputedRef<number>
  readonly iid: ComputedRef<number>
  /** The item is still being created (a temporary iid): it exists only on this computer, awaiting the server. */
  readonly creating: ComputedRef<boolean>
  /** The item as its account's store shows it (writes not yet confirmed included); null until loaded. */
  readonly item: ComputedRef<T | null>
  /** A write to it has not reached the server yet. */
  readonly pending: ComputedRef<boolean>
  /** The outbox's unsettled writes to this item. */
  readonly pendingEntries: ComputedRef<OutboxEntry[]>
  readonly projectPath: ComputedRef<string | null>
  readonly resolveReference: (reference: Reference) => string | null
  /** Writes `changes` through the item store; undefined when refused (`actionError` says why), null when nothing changed. */
  update(changes: ItemChanges): Promise<ItemWrite | null | undefined>
  readonly actionError: ShallowRef<ReadableError | null>
  readonly busy: ShallowRef<boolean>
  /** The title and description are being edited in place. */
  readonly editing: Ref<boolean>
  saveEdit(changes: ItemChanges): Promise<void>
  /** Ticks or unticks a task-list box of the description. */
  toggleTask(index: number, checked: boolean): void
}

/**
 * What the issue and merge request pages share: the item named by the route
 * (`/a/:account/projects/:projectId/{issues,merge_requests}/:iid`), its pending writes, and
 * the edits every one of them makes through the outbox (title, description, task ticks, state).
 */
export function useWorkDetail<K extends WorkKind>(kind: K): WorkDetail<K> {
  const route = useRoute()
  const bridge = useBridge()
  const outbox = useOutboxStore()
  const reference = useReferenceDataStore()
  const accountId = computed(() => String(route.params.account))
  const projectId = computed(() => Number(route.params.projectId))
  const iid = computed(() => Number(route.params.iid))
  const creating = computed(() => isTemporaryIid(iid.value))
  watch(accountId, (id) => void reference.ensure(id), { immediate: true })

  const itemRef = (): { project_id: number; iid: number } => ({ project_id: projectId.value, iid: iid.value })
  const requests: { readonly [W in WorkKind]: (options: GetOptions) => Promise<CachedDetail<W>> } = {
    issue: (options) => bridge.request('issues:get', accountId.value, itemRef(), options),
    merge_request: (options) => bridge.request('merge-requests:get', accountId.value, itemRef(), options),
  }
  const loaded = useItemDetail({
    key: () => [accountId.value, projectId.value, iid.value],
    kind,
    // An item still being created (temporary iid) exists only in the cache.
    get: (refresh) => requests[kind]({ refresh: refresh && !isTemporaryIid(iid.value) }),
  })
  // A new item opened before it landed: once the server has it, the page moves to its real number.
  const router = useRouter()
  const createdIid = computed(() =>
    isTemporaryIid(iid.value)
      ? outbox.entries.find((e) => e.id === creationEntryOf(iid.value) && e.accountId === accountId.value)?.createdIid
      : undefined,
  )
  watch(
    createdIid,
    (real) => {
      if (real !== undefined) void router.replace({ params: { ...route.params, iid: String(real) } })
    },
    { immediate: true },
  )
  const store = computed(() => useItemStore(accountId.value))
  void store.value // made in setup, where a store's setup can reach the app's injections
  const cached = computed(() => (loaded.detail.data.value ? READ[kind](loaded.detail.data.value.item.data) : null))
  const item = computed(() => (cached.value === null ? null : store.value.show(kind, cached.value)))
  const pending = computed(
    () =>
      (loaded.detail.data.value?.item.pending ?? false) ||
      (cached.value !== null && store.value.hasWrites(kind, cached.value)),
  )
  watch(
    item,
    (now) => {
      if (now) noteShownLabels(accountId.value, now, pending.value)
    },
    { flush: 'post' },
  )

  const pendingEntries = computed(() => outbox.forItem(accountId.value, kind, projectId.value, iid.value))
  const resolveReference = useReferenceResolver(
    () => accountId.value,
    () => projectId.value,
  )
  const projectPath = computed(
    () => reference.of(accountId.value).projectsById.get(projectId.value)?.path_with_namespace ?? null,
  )

  const { error: actionError, busy, run } = useIpcError()
  function update(changes: ItemChanges): Promise<ItemWrite | null | undefined> {
    const now = cached.value
    return now === null ? Promise.resolve(undefined) : run(() => store.value.update(kind, now, changes))
  }
  const editing = ref(false)
  async function saveEdit(changes: ItemChanges): Promise<void> {
    if ((await update(changes)) !== undefined) editing.value = false
  }
  function toggleTask(index: number, checked: boolean): void {
    const source = item.value?.description
    if (typeof source !== 'string') return
    const next = setTask(source, index, checked)
    if (next !== null && next !== source) void update({ description: next })
  }

  return {
    ...loaded,
    accountId,
    projectId,
    iid,
    creating,
    item,
    pending,
    pendingEntries,
    projectPath,
    resolveReference,
    update,
    actionError,
    busy,
    editing,
    saveEdit,
    toggleTask,
  }
}
