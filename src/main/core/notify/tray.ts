import type { NotifySummary } from '../../../shared/ipc/notify'

/**
 * The tray menu's notify part as plain data, so its content is decided (and tested) in core and
 * the Electron shell only maps entries to `MenuItemConstructorOptions`. Items carry the renderer
 * route a click shows.
 */
export type TrayEntry =
  | { readonly kind: 'item'; readonly label: string; readonly route: string }
  /** A line that says something and does nothing. */
  | { readonly kind: 'note'; readonly label: string }
  | { readonly kind: 'separator' }

export interface TrayModel {
  readonly tooltip: string
  readonly entries: readonly TrayEntry[]
}

const LABEL_MAX = 60

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= LABEL_MAX ? flat : `${flat.slice(0, LABEL_MAX - 1)}…`
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}

/** The tooltip and the to-do and alert entries of the tray menu for a summary. */
export function trayModel(summary: NotifySummary): TrayModel {
  const entries: TrayEntry[] = []
  const todos =
    summary.pendingTodos === 0 ? 'No pending to-dos' : plural(summary.pendingTodos, 'pending to-do', 'pending to-dos')
  entries.push({ kind: 'item', label: todos, route: '/todos' })
  for (const t of summary.latestTodos)
    entries.push({ kind: 'item', label: clip(`${t.title}: ${t.body}`), route: t.route })

  const checked = summary.accounts.some((a) => a.openAlerts !== null)
  if (checked) {
    entries.push({ kind: 'separator' })
    entries.push({
      kind: 'item',
      label: summary.openAlerts === 0 ? 'No open alerts' : plural(summary.openAlerts, 'open alert', 'open alerts'),
      route: '/alerts',
    })
    for (const a of summary.latestAlerts)
      entries.push({
        kind: 'item',
        label: clip(`${a.severity.toUpperCase()} ${a.title} (${a.projectPath})`),
        route: a.route,
      })
  }

  const offline = summary.accounts.filter((a) => a.state === 'offline').length
  const failing = summary.accounts.filter((a) => a.state === 'failing').length
  if (offline > 0 || failing > 0) entries.push({ kind: 'separator' })
  if (offline > 0)
    entries.push({ kind: 'note', label: `${plural(offline, 'account', 'accounts')} offline: checks resume when back` })
  if (failing > 0)
    entries.push({
      kind: 'item',
      label: `${plural(failing, 'account', 'accounts')} cannot be checked…`,
      route: '/accounts',
    })

  const parts = [plural(summary.pendingTodos, 'to-do', 'to-dos')]
  if (checked) parts.push(plural(summary.openAlerts, 'open alert', 'open alerts'))
  return { tooltip: `Burrow: ${parts.join(', ')}`, entries }
}
