import { defineStore } from 'pinia'
import { ref, watch } from 'vue'
import { readStored, writeStored } from '../lib/storage'

export type ThemePreference = 'system' | 'light' | 'dark'

interface Preferences {
  readonly theme: ThemePreference
  readonly sidebarCollapsed: boolean
}

const KEY = 'burrow.preferences'
const DEFAULTS: Preferences = { theme: 'system', sidebarCollapsed: false }

function isPreferences(value: unknown): value is Preferences {
  if (value === null || typeof value !== 'object') return false
  const v = value as Record<string, unknown>
  return ['system', 'light', 'dark'].includes(v.theme as string) && typeof v.sidebarCollapsed === 'boolean'
}

/** What the user chose for the window itself; kept in localStorage, never sent anywhere. */
export const usePreferencesStore = defineStore('preferences', () => {
  const stored = readStored(KEY, isPreferences, DEFAULTS)
  const theme = ref<ThemePreference>(stored.theme)
  const sidebarCollapsed = ref(stored.sidebarCollapsed)

  watch([theme, sidebarCollapsed], () => writeStored(KEY, { theme: theme.value, sidebarCollapsed: sidebarCollapsed.value } satisfies Preferences))

  /** system → light → dark → system. */
  function cycleTheme(): void {
    theme.value = theme.value === 'system' ? 'light' : theme.value === 'light' ? 'dark' : 'system'
  }

  return { theme, sidebarCollapsed, cycleTheme }
})
