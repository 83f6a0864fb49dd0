import { DEFAULT_PREFERENCES, type Preferences } from '../../shared/ipc/notify'
import type { CacheDb } from './cache/database'

/**
 * The app preferences core acts on (notifications, the to-do and alert check interval), in the
 * `app_preferences` table of the cache database (migration 100), one JSON value per key, so a
 * launch reads what the last one set. The renderer's look-and-feel settings stay in its own
 * storage: main has no use for them.
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

  /** Stores the given keys (already validated at the IPC boundary) and announces the result when something changed. */
  set(changes: Partial<Preferences>): Preferences {
    const next: Preferences = { ...this.current, ...changes }
    const changed = (Object.keys(next) as (keyof Preferences)[]).filter((k) => next[k] !== this.current[k])
    if (changed.length === 0) return this.current
    const write = this.db.prepare('INSERT INTO app_preferences (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
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

  /** Stored values over the defaults; a value of the wrong type (an older or damaged row) falls back to its default. */
  private read(): Preferences {
    const rows = this.db.prepare('SELECT key, value FROM app_preferences').all() as { key: string; value: string }[]
    const stored = new Map(rows.map((r) => [r.key, r.value]))
    const value = <K extends keyof Preferences>(key: K, valid: (v: unknown) => boolean): Preferences[K] => {
      const raw = stored.get(key)
      if (raw === undefined) return DEFAULT_PREFERENCES[key]
      try {
        const parsed: unknown = JSON.parse(raw)
        return valid(parsed) ? (parsed as Preferences[K]) : DEFAULT_PREFERENCES[key]
      } catch {
        return DEFAULT_PREFERENCES[key]
      }
    }
    return {
      notifications: value('notifications', (v) => typeof v === 'boolean'),
      notifyIntervalSeconds: value('notifyIntervalSeconds', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 30 && v <= 3600),
    }
  }
}
