/**
 * `npm run bench -- ui [issues] [rounds]`: how the renderer feels with a large cache, read from
 * its own User Timing measures (src/renderer/lib/perf.ts) through Playwright in Debian Chromium.
 * - issue_list_first_rows_ms: a route change to the issue list of all 10k issues (every state)
 *   until its first rows are painted; the list is left for Home between rounds;
 * - the label shortcut, as a user does it: `l` on the highlighted row, type a few letters of the
 *   label, Enter. The typing is the user's time, not the app's, so the shortcut is measured in
 *   the app's two waits, both from the renderer's Performance measures:
 *   - label_picker_open_ms: the `l` key until the picker lists the labels;
 *   - label_feedback_ms: Enter on the label until the row shows it added or taken off (pending,
 *     unless the server confirmed first: `label_feedback_pending_share` says how often it was
 *     still pending);
 *   - label_shortcut_ms: the two added up per round (the app's whole share of one shortcut);
 * - search_results_ms: text entered in the search view until its results are painted, over
 *   100k cached issues (the synced ones plus synthetic ones written straight into the cache),
 *   two-word queries, every word a prefix.
 * Burrow Server runs as its own process with the synthetic profile (no comments, so the first
 * sync only fetches items); core and the web host run here, as in browser mode, with the
 * server's root as the local account, synced before measuring. The first navigation (which
 * also loads the view's code) is reported apart. Writes bench/results/ui.json; asserts nothing.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import type { Cache, JsonObject } from '../src/main/core/cache/index'
import { launchCore } from '../src/main/core/launch'
import { startWebHost } from '../src/main/web-host'
import { LOCAL_ACCOUNT_ID, type IpcEvents } from '../src/shared/ipc/contract'
import { builtRenderer, CHROMIUM, CHROMIUM_ARGS, measures, nextMeasure, root, startServerProcess } from './lib/browser'
import { percentile, round3 } from './lib/stats'

/** Issues in the cache while search is measured. */
const SEARCH_CACHED = 100_000

/** The UI benchmark's server: the synthetic profile (bench/lib/ui-server.ts), a fifth as many merge requests as issues. */
const startServer = (dataDir: string, token: string, issues: number) =>
  startServerProcess('ui-server.ts', dataDir, token, [String(issues), String(Math.round(issues / 5))])

/** Synthetic issues of `projectIds`, numbered from `first`, written into the account's cache as a sync would. */
function topUpIssues(
  cache: Cache,
  accountId: string,
  projectIds: readonly number[],
  first: number,
  count: number,
): void {
  const words = ['parser', 'renderer', 'cache', 'sync', 'network', 'keychain', 'tray', 'diff', 'merge', 'label']
  for (let start = 0; start < count; start += 1000) {
    const batch: JsonObject[] = []
    for (let n = first + start; n < first + Math.min(count, start + 1000); n++) {
      const at = new Date(Date.UTC(2022, 0, 1) + n * 60_000).toISOString()
      batch.push({
        id: 50_000_000 + n,
        iid: 100_000 + n,
        project_id: projectIds[n % projectIds.length],
        title: `${words[n % 10]} ${words[(n * 7) % 10]} failure number ${n}`,
        description: `When the ${words[(n * 3) % 10]} runs after ${n} steps the ${words[(n * 5) % 10]} times out. Seen on build ${n % 1000}.`,
        state: n % 3 === 0 ? 'closed' : 'opened',
        labels: [],
        assignees: [],
        author: { id: 1, username: 'root', name: 'Administrator' },
        milestone: null,
        user_notes_count: 0,
        created_at: at,
        updated_at: at,
        web_url: `http://bench/issues/${n}`,
      })
    }
    cache.upsert(accountId, 'issue', batch)
  }
}

/** Runs the UI benchmark. */
export default async function uiBench(args: readonly string[]): Promise<void> {
  const issues = Number(args[0] ?? 10_000)
  const rounds = Number(args[1] ?? 15)
  const dir = mkdtempSync(join(tmpdir(), 'burrow-bench-ui-'))
  const token = randomBytes(16).toString('hex')
  const seedStarted = performance.now()
  const server = await startServer(join(dir, 'server'), token, issues)
  const seedMs = performance.now() - seedStarted
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
  const launch = await launchCore({
    userDataDir: join(dir, 'app'),
    version: pkg.version,
    mode: 'browser',
    localServer: { baseUrl: server.url, token },
    encryptedFilePassphrase: 'bench',
  })
  let browser: Awaited<ReturnType<typeof chromium.launch>> | null = null
  try {
    if (launch.localAccount === null) throw new Error(`the local account did not attach: ${launch.localAccountError}`)
    // The first sync, to completion, before anything is measured.
    const syncStarted = performance.now()
    const finished = new Promise<IpcEvents['sync:did-finish']>((resolve) => {
      const off = launch.core.events.subscribe((event, payload) => {
        if (event === 'sync:did-finish' && payload.accountId === LOCAL_ACCOUNT_ID) {
          off()
          resolve(payload)
        }
      })
    })
    const started = await launch.core.dispatch('sync:start', [LOCAL_ACCOUNT_ID])
    if (!started.ok) throw new Error(`sync:start: ${started.error.message}`)
    const sync = await finished
    if (sync.outcome !== 'completed') throw new Error(`sync ${sync.outcome}: ${sync.error?.message}`)
    const syncMs = performance.now() - syncStarted
    const cached = launch.cache.db.prepare('SELECT COUNT(*) FROM issues').pluck().get() as number
    if (cached !== issues) throw new Error(`the cache holds ${cached} issues, not ${issues}`)

    const host = await startWebHost({ rendererDir: builtRenderer(), core: launch.core })
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
    const page = await browser.newPage({ viewport: { width: 1360, height: 860 } })
    await page.goto(host.pageUrl)
    await page.getByTestId('page-title').filter({ hasText: 'Home' }).waitFor()

    // Navigation → first rows of the whole list (every state: all the issues).
    const LIST = '#/issues?order_by=created_at&sort=desc&state=all'
    const FIRST = 'burrow:issue-list-first-rows'
    const firstRows: number[] = []
    for (let i = 0; i <= rounds; i++) {
      await page.evaluate(() => (location.hash = '#/'))
      await page.getByTestId('page-title').filter({ hasText: 'Home' }).waitFor()
      const before = await measures(page, FIRST)
      await page.evaluate((hash) => (location.hash = hash), LIST)
      firstRows.push((await nextMeasure(page, FIRST, before)).duration)
    }
    const total = (await page.getByTestId('list-total').textContent())?.trim()

    // The label shortcut on the highlighted row: on, then off, alternately.
    const labels = (
      launch.cache.db.prepare('SELECT DISTINCT name FROM labels ORDER BY name').pluck().all() as string[]
    ).slice(0, 3)
    if (labels.length === 0) throw new Error('no labels in the cache')
    await page.getByTestId('list-total').click()
    const FEEDBACK = 'burrow:label-feedback'
    const OPEN = 'burrow:label-picker-open'
    const feedback: number[] = []
    const opening: number[] = []
    const shortcut: number[] = []
    let pending = 0
    for (let i = 0; i < rounds * 2; i++) {
      if (i % 2 === 0 && i > 0) await page.keyboard.press('j')
      const label = labels[Math.floor(i / 2) % labels.length]
      const before = await measures(page, FEEDBACK)
      const openedBefore = await measures(page, OPEN)
      await page.keyboard.press('l')
      const opened = await nextMeasure(page, OPEN, openedBefore)
      opening.push(opened.duration)
      await page.getByTestId('triage-filter').locator('input').fill(label)
      await page.getByTestId('triage-picker').getByRole('option').filter({ hasText: label }).first().waitFor()
      await page.keyboard.press('Enter')
      const measured = await nextMeasure(page, FEEDBACK, before)
      feedback.push(measured.duration)
      shortcut.push(opened.duration + measured.duration)
      if ((measured.detail as { pending?: boolean } | null)?.pending === true) pending++
    }

    // Search over 100k cached issues: typed text (entered at once) until the results are painted.
    const projectIds = launch.cache.db.prepare('SELECT id FROM projects WHERE synced = 1').pluck().all() as number[]
    topUpIssues(launch.cache, LOCAL_ACCOUNT_ID, projectIds, 1, SEARCH_CACHED - issues)
    const searchCached = launch.cache.db.prepare('SELECT COUNT(*) FROM issues').pluck().get() as number
    await page.evaluate(() => (location.hash = '#/search'))
    const input = page.getByTestId('search-input').locator('input')
    await input.waitFor()
    const SEARCH = 'burrow:search-results'
    const searching: number[] = []
    const queries = [
      'parser crash',
      'renderer cache',
      'network time',
      'keychain fail',
      'sync numb',
      'diff merge',
      'tray label',
      'failure 4242',
    ]
    for (let i = 0; i < rounds; i++) {
      for (const q of queries) {
        await input.fill('')
        const before = await measures(page, SEARCH)
        await input.fill(q)
        searching.push((await nextMeasure(page, SEARCH, before)).duration)
      }
    }

    const results = {
      issues,
      list_total: total,
      rounds,
      seed_ms: round3(seedMs),
      initial_sync_ms: round3(syncMs),
      issue_list_first_rows_cold_ms: round3(firstRows[0]),
      issue_list_first_rows_ms: round3(percentile(firstRows.slice(1), 50)),
      issue_list_first_rows_p95_ms: round3(percentile(firstRows.slice(1), 95)),
      label_feedback_ms: round3(percentile(feedback, 50)),
      label_feedback_p95_ms: round3(percentile(feedback, 95)),
      label_feedback_pending_share: round3(pending / feedback.length),
      label_picker_open_ms: round3(percentile(opening, 50)),
      label_picker_open_p95_ms: round3(percentile(opening, 95)),
      label_shortcut_ms: round3(percentile(shortcut, 50)),
      search_cached_issues: searchCached,
      search_results_ms: round3(percentile(searching, 50)),
      search_results_p95_ms: round3(percentile(searching, 95)),
      load_average_1m: loadavg().map(round3),
      chromium: browser.version(),
    }
    for (const [k, v] of Object.entries(results)) console.log(`${k.padEnd(32)} ${v}`)
    writeFileSync(join(root, 'bench', 'results', 'ui.json'), `${JSON.stringify(results, null, 2)}\n`)
    await host.close()
  } finally {
    await browser?.close()
    await launch.close()
    server.child.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
}
