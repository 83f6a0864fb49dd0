/**
 * Renderer preferences in localStorage (theme, last account, saved filters): small,
 * per-installation, and never secret. Reads are validated because anything may be stored there.
 */

/** Reads and validates a JSON value; the fallback when missing, unparsable or invalid. */
export function readStored<T>(
  key: string,
  isValid: (value: unknown) => value is T,
  fallback: T,
  storage: Storage | undefined = globalThis.localStorage,
): T {
  try {
    const raw = storage?.getItem(key)
    if (raw === null || raw === undefined) return fallback
    const value: unknown = JSON.parse(raw)
    return isValid(value) ? value : fallback
  } catch {
    return fallback
  }
}

/** Writes a JSON value; a full or disabled storage is not an error worth interrupting anyone for. */
export function writeStored(key: string, value: unknown, storage: Storage | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(key, JSON.stringify(value))
  } catch {
    // quota exceeded or storage disabled: the preference lasts for this session only
  }
}
