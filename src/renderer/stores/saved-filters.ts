import { defineStore } from 'pinia'
import { ref } from 'vue'
import { parseIssueFilter, serializeIssueFilter, type IssueFilter } from '../lib/issue-filter'
import { readStored, writeStored } from '../lib/storage'

/** A named issue filter: the query string of lib/issue-filter.ts, for one account or all. */
export interface SavedFilter {
  readonly id: string
  readonly name: string
  /** `serializeIssueFilter` output. */
  readonly query: string
  /** An account id, or `all`. */
  readonly account: string
}

const KEY = 'burrow.saved-filters'

function isSavedFilters(value: unknown): value is SavedFilter[] {
  return Array.isArray(value) && value.every((f) => f !== null && typeof f === 'object' && ['id', 'name', 'query', 'account'].every((k) => typeof (f as Record<string, unknown>)[k] === 'string'))
}

/** Saved issue filters, kept in localStorage. */
export const useSavedFiltersStore = defineStore('saved-filters', () => {
  const filters = ref<SavedFilter[]>(readStored(KEY, isSavedFilters, []))

  const persist = (): void => writeStored(KEY, filters.value)

  /** Saves under `name`, replacing a filter of the same name for the same account. */
  function save(name: string, filter: IssueFilter, account: string): SavedFilter {
    const trimmed = name.trim()
    if (trimmed === '') throw new Error('A saved filter needs a name')
    const existing = filters.value.find((f) => f.account === account && f.name === trimmed)
    const saved: SavedFilter = { id: existing?.id ?? crypto.randomUUID(), name: trimmed, query: serializeIssueFilter(filter), account }
    filters.value = existing ? filters.value.map((f) => (f.id === saved.id ? saved : f)) : [...filters.value, saved]
    persist()
    return saved
  }

  function remove(id: string): void {
    filters.value = filters.value.filter((f) => f.id !== id)
    persist()
  }

  /** The filters for an account: its own and those saved for all accounts. */
  function forAccount(account: string): SavedFilter[] {
    return filters.value.filter((f) => f.account === account || f.account === 'all')
  }

  function filterOf(saved: SavedFilter): IssueFilter {
    return parseIssueFilter(saved.query)
  }

  return { filters, save, remove, forAccount, filterOf }
})
