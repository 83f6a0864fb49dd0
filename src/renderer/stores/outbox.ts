import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { OutboxEntry, OutboxState } from '../../shared/ipc/outbox'
import { useBridge } from '../bridge'
import { toReadableError, type ReadableError } from '../lib/ipc-errors'

const SETTLED: readonly OutboxState[] = ['done', 'reconciled', 'discarded']
/** How many settled entries the panel keeps to show what just went through. */
const RECENT = 50

/** The write queue as the renderer sees it: what waits, what failed, what conflicts. */
export const useOutboxStore = defineStore('outbox', () => {
  const bridge = useBridge()
  const entries = ref<readonly OutboxEntry[]>([])
  const loaded = ref(false)
  const error = ref<ReadableError | null>(null)

  bridge.on('outbox:did-change', ({ entry }) => {
    const rest = entries.value.filter((e) => e.id !== entry.id)
    entries.value = [...rest, entry].sort((a, b) => a.id - b.id)
    trim()
  })

  function trim(): void {
    const settled = entries.value.filter((e) => SETTLED.includes(e.state))
    if (settled.length <= RECENT) return
    const drop = new Set(settled.slice(0, settled.length - RECENT).map((e) => e.id))
    entries.value = entries.value.filter((e) => !drop.has(e.id))
  }

  async function load(): Promise<void> {
    try {
      entries.value = await bridge.request('outbox:list', { includeSettled: true })
      loaded.value = true
      error.value = null
      trim()
    } catch (e) {
      error.value = toReadableError(e)
    }
  }

  const unsettled = computed(() => entries.value.filter((e) => !SETTLED.includes(e.state)))
  const waiting = computed(() => unsettled.value.filter((e) => e.state === 'queued' || e.state === 'sending'))
  const needsAttention = computed(() =>
    unsettled.value.filter((e) => e.state === 'failed' || e.state === 'conflict' || e.state === 'unknown-outcome'),
  )

  /** The unsettled writes of one issue or merge request. */
  function forItem(accountId: string, type: 'issue' | 'merge_request', projectId: number, iid: number): OutboxEntry[] {
    return unsettled.value.filter(
      (e) =>
        e.accountId === accountId && e.target.type === type && e.target.projectId === projectId && e.target.iid === iid,
    )
  }

  async function retry(id: number): Promise<void> {
    await bridge.request('outbox:retry', id)
  }
  async function discard(id: number): Promise<void> {
    await bridge.request('outbox:discard', id)
  }

  return { entries, loaded, error, unsettled, waiting, needsAttention, load, forItem, retry, discard }
})
