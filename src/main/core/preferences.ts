import { DEFAULT_PREFERENCES, type Preferences, type PreferencesRequests } from '../../shared/ipc/preferences'
import { PREFERENCE_KEYS, preferenceProblem } from '../../shared/ipc/preferences-schema'
import type { CacheDb } from './cache/database'

/**
 * The app preferences (shared/ipc/preferences.ts): what core acts on (notifications, check and
 * sync intervals) and what the renderer shows (theme, sidebar, saved filters). Kept in the
 * `app_preferences` table of the cache database (migration 100), one JSON value per key, so a
 * launch reads what the last one set, whichever shell and whatever origin the page had. Not a
 * file of its own: the cache database is already the app's durable store (the outbox lives
 * there), and a write is one transaction.
 */
export class PreferencesStore {
  private readonly listeners = new Set<(preferences: Preferences) => void>()
  private current: Preferences

  constructor(private readonly db: CacheDb) {
    this.current = this.read()
  }

  get(): Preferences {
    return this.current
  }

  /**
   * Stores the given keys (already validated at the IPC boundary) and announces the result when
   * something changed. A key given as undefined is not given (Partial's meaning; Electron's IPC
   * keeps such keys, and the schema's optional fields let them through).
   */
  set(changes: Partial<Preferences>): Preferences {
    const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
    const next: Preferences = { ...this.current, ...given }
    const changed = PREFERENCE_KEYS.filter((k) => JSON.stringify(next[k]) !== JSON.stringify(this.current[k]))
    if (changed.length === 0) return this.current
    const write = this.db.prepare(
      'INSERT INTO app_preferences (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    )
    this.db.transaction(() => {
      for (const key of changed) write.run(key, JSON.stringify(next[key]))
    })()
    this.current = next
    for (const listener of this.listeners) {
      try {
        listener(next)
      } catch {
        /* a broken listener must not stop the others */
      }
    }
    return next
  }

  /** Returns the unsubscribe function. */
  onDidChange(listener: (preferences: Preferences) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Stored values over the defaults; a value that is no longer valid (an older or damaged row) falls back to its default. */
  private read(): Preferences {
    const rows = this.db.prepare('SELECT key, value FROM app_preferences').all() as { key: string; value: string }[]
    const stored = new Map(rows.map((r) => [r.key, r.value]))
    const value = <K extends keyof Preferences>(key: K): Preferences[K] => {
      const raw = stored.get(key)
      if (raw === undefined) return DEFAULT_PREFERENCES[key]
      try {
        const parsed: unknown = JSON.parse(raw)
        return preferenceProblem(key, parsed) === null ? (parsed as Preferences[K]) : DEFAULT_PREFERENCES[key]
      } catch {
        return DEFAULT_PREFERENCES[key]
      }
    }
    const preferences: { -readonly [K in keyof Preferences]: Preferences[K] } = { ...DEFAULT_PREFERENCES }
    // Generic per key, so each value is checked against its own key's type.
    const load = <K extends keyof Preferences>(key: K): void => {
      preferences[key] = value(key)
    }
    for (const key of PREFERENCE_KEYS) load(key)
    return preferences
  }
}

/** One async function per preferences channel (handlers.ts spreads them into the contract's handlers). */
export type PreferencesHandlers = {
  readonly [C in keyof PreferencesRequests]: (
    ...args: PreferencesRequests[C]['args']
  ) => Promise<PreferencesRequests[C]['result']>
}

/** The preferences channels over the store; the getter is called per request, so a launch without a cache answers `unavailable`. */
export function preferencesHandlers(preferences: () => PreferencesStore): PreferencesHandlers {
  return {
    'preferences:get': async () => preferences().get(),
    'preferences:set': async (changes) => preferences().set(changes),
  }
}
