import { invalidParam } from './errors'

/**
 * An array parameter given either way GitLab accepts (`a[]=x&a[]=y` or comma-separated `a=x,y`),
 * every value checked against `allowed`: 400 `<name> does not have a valid value` otherwise.
 */
export function listParam(
  name: string,
  values: readonly string[] | undefined,
  allowed: readonly string[],
): string[] | undefined {
  if (values === undefined) return undefined
  const list = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '')
  if (list.some((v) => !allowed.includes(v))) throw invalidParam(name, 'does not have a valid value')
  return list
}
