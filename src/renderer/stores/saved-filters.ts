import { defineStore } from 'pinia'
import { computed } from 'vue'
import type { SavedFilter } from '../../shared/ipc/preferences'
import { parseIssueFilter, serializeIssueFilter, type IssueFilter } from '../lib/issue-filter'
import { usePreferencesStore } from './preferences'

export type { SavedFilter } from '../../shared/ipc/preferences'

/** Saved issue filters: the `savedFilters` preference, kept by core (see stores/preferences.ts). */
export const useSavedFiltersStore = defineStore('saved-filters', () => {
  const preferences = usePreferencesStore()
  const filters = computed<readonly SavedFilter[]>(() => preferences.values.savedFilters)

  /** Saves under `name`, replacing a filter of the same name for the same account. */
  function save(name: string, filter: IssueFilter, account: string): SavedFilter {
    const trimmed = name.trim()
    if (trimmed === '') throw new Error('A saved filter needs a name')
    const existing = filters.value.find((f) => f.account === account && f.name === trimmed)
    const saved: SavedFilter = {
      id: existing?.id ?? crypto.randomUUID(),
      name: trimmed,
      query: serializeIssueFilter(filter),
      account,
    }
    void preferences.set({
      savedFilters: existing ? filters.value.map((f) => (f.id === saved.id ? saved : f)) : [...filters.value, saved],
    })
    return saved
  }

  function remove(id: string): void {
    void preferences.set({ savedFilters: filters.value.filter((f) => f.id !== id) })
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
