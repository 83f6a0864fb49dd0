import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { DEFAULT_PREFERENCES, type Preferences, type ThemePreference } from '../../shared/ipc/preferences'
import { useBridge } from '../bridge'
import { readStored, writeStored } from '../lib/storage'

export type { ThemePreference } from '../../shared/ipc/preferences'

/** The look of the window as last seen by this origin: shown before core answers, so a restart does not flash the OS theme. */
const HINT_KEY = 'burrow.preferences'

interface Hint {
  readonly theme: ThemePreference
  readonly sidebarCollapsed: boolean
}

function isHint(value: unknown): value is Hint {
  if (value === null || typeof value !== 'object') return false
  const v = value as Record<string, unknown>
  return ['system', 'light', 'dark'].includes(v.theme as string) && typeof v.sidebarCollapsed === 'boolean'
}

/**
 * The app preferences, kept by core (`preferences:get|set`, `preferences:did-change`) so they
 * survive restarts in both shells; browser mode's page gets a new origin each launch, which
 * empties localStorage. A change shows at once and is sent to core; core's answer, and any
 * change made elsewhere (another window), is what the store then holds.
 */
export const usePreferencesStore = defineStore('preferences', () => {
  const bridge = useBridge()
  const values = ref<Preferences>({ ...DEFAULT_PREFERENCES, ...readStored(HINT_KEY, isHint, DEFAULT_PREFERENCES) })
  const loaded = ref(false)

  function apply(preferences: Preferences): void {
    values.value = preferences
    writeStored(HINT_KEY, { theme: preferences.theme, sidebarCollapsed: preferences.sidebarCollapsed } satisfies Hint)
  }

  bridge.on('preferences:did-change', apply)
  void bridge.request('preferences:get').then(
    (preferences) => {
      apply(preferences)
      loaded.value = true
    },
    () => undefined, // no core (no launch secret): the defaults, for this page only
  )

  /** Shows the change at once and stores it in core; a refusal leaves it for this session only. */
  async function set(changes: Partial<Preferences>): Promise<void> {
    values.value = { ...values.value, ...changes }
    writeStored(HINT_KEY, { theme: values.value.theme, sidebarCollapsed: values.value.sidebarCollapsed } satisfies Hint)
    try {
      apply(await bridge.request('preferences:set', changes))
    } catch {
      // core unreachable or the value refused: the page keeps what the user chose until it reloads
    }
  }

  const theme = computed<ThemePreference>({ get: () => values.value.theme, set: (theme) => void set({ theme }) })
  const sidebarCollapsed = computed<boolean>({
    get: () => values.value.sidebarCollapsed,
    set: (sidebarCollapsed) => void set({ sidebarCollapsed }),
  })

  /** system → light → dark → system. */
  function cycleTheme(): void {
    theme.value = theme.value === 'system' ? 'light' : theme.value === 'light' ? 'dark' : 'system'
  }

  return { values, loaded, theme, sidebarCollapsed, set, cycleTheme }
})
