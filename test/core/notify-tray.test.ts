import { describe, expect, it } from 'vitest'
import { trayModel } from '../../src/main/core/notify/index'
import type { NotifyAccountCounts, NotifySummary } from '../../src/shared/ipc/notify'

/*
 * What the Electron shell's tray menu lists (core/notify/tray.ts): the shell itself cannot run
 * here (no Electron binary), so the menu's content is decided in core and tested as data.
 */

const account = (over: Partial<NotifyAccountCounts> = {}): NotifyAccountCounts => ({
  accountId: 'a1',
  pendingTodos: 0,
  openAlerts: null,
  triggeredAlerts: null,
  state: 'watching',
  lastError: null,
  todosCheckedAt: null,
  alertsCheckedAt: null,
  ...over,
})

const summary = (over: Partial<NotifySummary> = {}): NotifySummary => ({
  accounts: [account()],
  pendingTodos: 0,
  openAlerts: 0,
  latestTodos: [],
  latestAlerts: [],
  ...over,
})

describe('tray menu', () => {
  it('lists the to-do count and the newest to-dos and triggered alerts, each opening its route', () => {
    const model = trayModel(
      summary({
        accounts: [account({ pendingTodos: 2, openAlerts: 1, triggeredAlerts: 1 })],
        pendingTodos: 2,
        openAlerts: 1,
        latestTodos: [
          {
            accountId: 'a1',
            id: 9,
            title: 'Mara Maintainer assigned you',
            body: 'Page the database team · ops/pager#4',
            createdAt: '',
            url: null,
            route: '/a/a1/projects/3/issues/4',
          },
          {
            accountId: 'a1',
            id: 8,
            title: 'Ada mentioned you',
            body: 'A very long title that goes on and on about the release checklist and more',
            createdAt: '',
            url: null,
            route: '/todos',
          },
        ],
        latestAlerts: [
          {
            accountId: 'a1',
            projectId: 3,
            projectPath: 'ops/pager',
            iid: 2,
            title: 'API error rate above 5%',
            severity: 'critical',
            status: 'triggered',
            startedAt: null,
            createdAt: null,
            eventCount: 1,
            assigneeUsernames: [],
            url: null,
            route: '/a/a1/projects/3/alerts/2',
          },
        ],
      }),
    )
    expect(model.tooltip).toBe('Burrow: 2 to-dos, 1 open alert')
    expect(model.entries).toEqual([
      { kind: 'item', label: '2 pending to-dos', route: '/todos' },
      {
        kind: 'item',
        label: 'Mara Maintainer assigned you: Page the database team · ops/…',
        route: '/a/a1/projects/3/issues/4',
      },
      { kind: 'item', label: 'Ada mentioned you: A very long title that goes on and on ab…', route: '/todos' },
      { kind: 'separator' },
      { kind: 'item', label: '1 open alert', route: '/alerts' },
      { kind: 'item', label: 'CRITICAL API error rate above 5% (ops/pager)', route: '/a/a1/projects/3/alerts/2' },
    ])
  })

  it('leaves alerts out until they were checked, and says which accounts are offline or failing', () => {
    const model = trayModel(
      summary({
        accounts: [
          account({ state: 'offline' }),
          account({ accountId: 'a2', state: 'failing', lastError: 'HTTP 500' }),
        ],
      }),
    )
    expect(model.tooltip).toBe('Burrow: 0 to-dos')
    expect(model.entries).toEqual([
      { kind: 'item', label: 'No pending to-dos', route: '/todos' },
      { kind: 'separator' },
      { kind: 'note', label: '1 account offline: checks resume when back' },
      { kind: 'item', label: '1 account cannot be checked…', route: '/accounts' },
    ])
  })
})
