import { invalidParam } from './errors'

/**
 * A text parameter of a route that reads its body itself: a string as given, a number or boolean
 * as its text (as Grape coerces them), and 400 `<name> is invalid` for a list or a hash, which
 * would otherwise be stored as `[object Object]` or break String() (form bodies nest without a
 * prototype).
 */
export function textParam(name: string, raw: unknown): string {
  if (typeof raw === 'string') return raw
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw)
  throw invalidParam(name)
}
