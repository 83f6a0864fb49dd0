/**
 * `npm run bench -- review [rounds]`: reviewing a large merge request in the renderer, read from
 * its own User Timing measures (src/renderer/lib/perf.ts) and frame times, through Playwright in
 * Debian Chromium.
 * - review_first_diff_ms: a click on the merge request's Changes tab until the first file's diff
 *   lines are painted (`burrow:review-first-diff`), the tab left for Overview between rounds;
 * - review_comment_feedback_ms: a click on "Add comment now" in a line's comment form until the
 *   comment shows in its thread under that line, painted (`burrow:review-comment-feedback`; it
 *   shows pending, before the server has it: `review_comment_feedback_pending_share`), one comment
 *   a round on the first file's first line, each round after the previous comment landed;
 * - review_scroll_p95_frame_ms: the 95th percentile of what a frame costs while the diff scrolls
 *   from top to bottom at 240 px a frame, unified and side by side. A frame's cost is the time
 *   from its start (the requestAnimationFrame timestamp) to the first task after its rendering (a
 *   MessageChannel message posted from its animation callback): the scroll event, the list's
 *   update, style, layout and paint of that frame on the renderer's main thread. The display's
 *   refresh is not in it: requestAnimationFrame deltas are held to 16.7 ms (60 Hz) however cheap
 *   the frame, and headless Chromium 156 keeps them so even with `--disable-frame-rate-limit
 *   --disable-gpu-vsync`. Beside it the same page's frames at rest measured the same way
 *   (`idle_p95_frame_ms`): what a frame costs with no work, i.e. the machine's load alone;
 *   `review_scroll_long_frame_share` is the share of scroll frames over 16 ms (a missed 60 Hz frame).
 * The merge request is real: a repository pushed over git to Burrow Server (its own process,
 * bench/lib/review-server.ts), whose branch changes 300 files by about 20,000 lines, opened
 * through the API; core and the web host run here as in browser mode, with the server's root as
 * the local account, synced before measuring. Writes bench/results/review.json with the load
 * average (the machine is shared); asserts nothing.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from '@playwright/test'
import { launchCore } from '../src/main/core/launch'
import { startWebHost } from '../src/main/web-host'
import { LOCAL_ACCOUNT_ID, type IpcEvents } from '../src/shared/ipc/contract'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../test/helpers/git'
import { builtRenderer, CHROMIUM, CHROMIUM_ARGS, measures, nextMeasure, root, startServerProcess } from './lib/browser'
import { percentile, round3 } from './lib/stats'

const FILES = 300
/** Lines of each file on main; the branch changes every third one and adds a line at the end. */
const LINES = 100
const FIRST_DIFF = 'burrow:review-first-diff'
const COMMENT_FEEDBACK = 'burrow:review-comment-feedback'

const fileName = (i: number): string =>
  `src/module-${String(Math.floor(i / 20)).padStart(2, '0')}/file-${String(i).padStart(3, '0')}.ts`
function content(i: number, changed: boolean): string {
  const lines: string[] = []
  for (let n = 0; n < LINES; n++) {
    const edited = changed && n % 3 === 0
    lines.push(
      `export const value${n} = ${edited ? `compute(${i}, ${n}, 'changed')` : `${i * LINES + n}`} // line ${n}`,
    )
  }
  if (changed) lines.push(`export const added${i} = true`)
  return `${lines.join('\n')}\n`
}

async function api<T>(url: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

/** A project whose `review` branch changes FILES files by about 20k lines, and its merge request. */
async function bigMergeRequest(url: string, token: string): Promise<{ projectId: number; iid: number; lines: number }> {
  const project = await api<{ id: number; path_with_namespace: string }>(url, token, 'POST', '/projects', {
    name: 'Review bench',
    path: 'review-bench',
  })
  const work = makeWorkRepo()
  const base: Record<string, string> = {}
  const changed: Record<string, string> = {}
  for (let i = 0; i < FILES; i++) {
    base[fileName(i)] = content(i, false)
    changed[fileName(i)] = content(i, true)
  }
  commitFiles(work, base, 'The modules')
  await sh(work, 'checkout', '--quiet', '-b', 'review')
  commitFiles(work, changed, 'Compute the values')
  await sh(work, 'push', '--quiet', remoteUrl(url, project.path_with_namespace, token), 'main', 'review')
  const mr = await api<{ iid: number }>(url, token, 'POST', `/projects/${project.id}/merge_requests`, {
    source_branch: 'review',
    target_branch: 'main',
    title: 'Compute the values',
  })
  const perFile = Math.ceil(LINES / 3) * 2 + 1
  return { projectId: project.id, iid: mr.iid, lines: perFile * FILES }
}

/**
 * What each frame costs (ms, see the header) while the review's diff scrolls from top to bottom,
 * `step` px a frame, or, with `step` 0, over `count` frames at rest. Sent as source text: tsx would
 * name the page's inner functions with a helper the page does not have.
 */
const FRAME_COSTS = `(step, count) => new Promise((resolve, reject) => {
  const list = document.querySelector('[data-testid="review-diff"] .common-virtual-list')
  if (!(list instanceof HTMLElement)) return reject(new Error('no review list'))
  list.scrollTop = 0
  const costs = []
  const afterRendering = new MessageChannel()
  let frameStart = 0
  afterRendering.port1.onmessage = () => {
    costs.push(performance.now() - frameStart)
    const done = step === 0 ? costs.length >= count : list.scrollTop + list.clientHeight >= list.scrollHeight - 1
    if (done) return resolve(costs)
    list.scrollTop += step
    requestAnimationFrame(frame)
  }
  function frame(start) {
    frameStart = start
    afterRendering.port2.postMessage(null)
  }
  requestAnimationFrame(() => requestAnimationFrame(frame))
})`

/** Frame costs while the diff scrolls to its end, `step` px a frame. */
const scrollFrames = (page: Page, step: number): Promise<number[]> =>
  page.evaluate(`(${FRAME_COSTS})(${step}, 0)`) as Promise<number[]>

/** Frame costs of `count` frames of the same page at rest: what the machine's load alone costs a frame. */
const idleFrames = (page: Page, count: number): Promise<number[]> =>
  page.evaluate(`(${FRAME_COSTS})(0, ${count})`) as Promise<number[]>

/** A page of the web host on the merge request's Overview, its tabs ready. */
async function openMergeRequest(browser: Browser, pageUrl: string, hash: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 } })
  await page.goto(pageUrl)
  await page.getByTestId('page-title').filter({ hasText: 'Home' }).waitFor()
  await page.evaluate((h) => (location.hash = h), hash)
  await page.locator('.n-tabs-tab').filter({ hasText: 'Changes' }).waitFor()
  return page
}

/**
 * `rounds` line comments on the first file's first line, each from the click on "Add comment now"
 * to the comment shown under the line; the next round starts once the comment landed (no pending
 * marker left), so each measures a comment sent alone. Returns the durations and how many showed pending.
 */
async function commentFeedback(page: Page, rounds: number): Promise<{ durations: number[]; pending: number }> {
  const line = page.locator(`.review-row--line[data-anchor="${fileName(0)}::1"]`)
  const form = page.getByTestId('review-composer')
  const durations: number[] = []
  let pending = 0
  for (let i = 0; i < rounds; i++) {
    await line.hover()
    await line.getByTestId('review-add-comment').click()
    await form.locator('textarea').fill(`Feedback round ${i}`)
    const before = await measures(page, COMMENT_FEEDBACK)
    await form.getByTestId('review-composer-now').click()
    const measure = await nextMeasure(page, COMMENT_FEEDBACK, before)
    durations.push(measure.duration)
    if ((measure.detail as { pending?: boolean } | null)?.pending === true) pending += 1
    await page.waitForFunction(() => document.querySelector('[data-testid="pending-marker"]') === null, undefined, {
      timeout: 60_000,
    })
  }
  return { durations, pending }
}

/** Runs the review benchmark. */
export default async function reviewBench(args: readonly string[]): Promise<void> {
  const rounds = Number(args[0] ?? 10)
  const dir = mkdtempSync(join(tmpdir(), 'burrow-bench-review-'))
  const token = randomBytes(16).toString('hex')
  const server = await startServerProcess('review-server.ts', join(dir, 'server'), token)
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
  let browser: Awaited<ReturnType<typeof chromium.launch>> | null = null
  const launch = await launchCore({
    userDataDir: join(dir, 'app'),
    version: pkg.version,
    mode: 'browser',
    localServer: { baseUrl: server.url, token },
    encryptedFilePassphrase: 'bench',
  })
  try {
    const mr = await bigMergeRequest(server.url, token)
    if (launch.localAccount === null) throw new Error(`the local account did not attach: ${launch.localAccountError}`)
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

    const host = await startWebHost({ rendererDir: builtRenderer(), core: launch.core })
    const mrHash = `#/a/${LOCAL_ACCOUNT_ID}/projects/${mr.projectId}/merge_requests/${mr.iid}`
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
    const page = await openMergeRequest(browser, host.pageUrl, mrHash)
    const changesTab = page.locator('.n-tabs-tab').filter({ hasText: 'Changes' })
    const overviewTab = page.locator('.n-tabs-tab').filter({ hasText: 'Overview' })

    // Changes tab → first diff painted; the first round (the diff read from the server) reported apart.
    const firstDiff: number[] = []
    for (let i = 0; i <= rounds; i++) {
      await overviewTab.click()
      await page.getByTestId('review-changes').waitFor({ state: 'detached' })
      const before = await measures(page, FIRST_DIFF)
      await changesTab.click()
      firstDiff.push((await nextMeasure(page, FIRST_DIFF, before)).duration)
    }
    const files = await page.getByTestId('review-tree-file').count()
    const summary = (await page.getByTestId('review-summary').textContent())?.replace(/\s+/g, ' ').trim()
    const feedback = await commentFeedback(page, rounds)

    // Frames at rest, then scrolling the whole diff, unified and side by side.
    const idle = await idleFrames(page, 1000)
    const frames: number[] = []
    for (const mode of ['unified', 'split'] as const) {
      await page.getByTestId(`review-mode-${mode}`).click()
      await page
        .getByTestId('review-diff')
        .and(page.locator(`[data-mode="${mode}"]`))
        .waitFor()
      for (let i = 0; i < Math.max(1, Math.round(rounds / 5)); i++) frames.push(...(await scrollFrames(page, 240)))
    }

    const results = {
      files,
      changed_lines: mr.lines,
      summary,
      rounds,
      review_first_diff_cold_ms: round3(firstDiff[0]),
      review_first_diff_ms: round3(percentile(firstDiff.slice(1), 50)),
      review_first_diff_p95_ms: round3(percentile(firstDiff.slice(1), 95)),
      review_comment_feedback_ms: round3(percentile(feedback.durations, 50)),
      review_comment_feedback_p95_ms: round3(percentile(feedback.durations, 95)),
      review_comment_feedback_pending_share: round3(feedback.pending / feedback.durations.length),
      review_scroll_frames: frames.length,
      review_scroll_median_frame_ms: round3(percentile(frames, 50)),
      review_scroll_p95_frame_ms: round3(percentile(frames, 95)),
      review_scroll_long_frame_share: round3(frames.filter((f) => f > 16).length / frames.length),
      idle_median_frame_ms: round3(percentile(idle, 50)),
      idle_p95_frame_ms: round3(percentile(idle, 95)),
      load_average_1m: loadavg().map(round3),
      chromium: browser.version(),
    }
    for (const [k, v] of Object.entries(results)) console.log(`${k.padEnd(32)} ${v}`)
    writeFileSync(join(root, 'bench', 'results', 'review.json'), `${JSON.stringify(results, null, 2)}\n`)
    await host.close()
  } finally {
    await browser?.close()
    await launch.close()
    server.child.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
}
