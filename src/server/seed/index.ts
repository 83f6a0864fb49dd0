/**
 * Seeding an instance with content: `demo` (a small company's forge for `npm start`) or
 * `synthetic` (large, parameterised data sets for benchmarks). Both write rows the services
 * would write; the same seed gives the same content.
 */
import type { ServerContext } from '../platform/context'
import {
  contentCounts,
  finishSeedRun,
  firstSeedRun,
  hasUserContent,
  startSeedRun,
  type ContentCounts,
  type SeedRunRow,
} from '../platform/db/seed-queries'
import { seedDemo } from './demo'
import { DEFAULT_SYNTHETIC, seedSynthetic, type SyntheticSize } from './synthetic'

export type SeedProfile = 'demo' | 'synthetic'
export const SEED_PROFILES: readonly SeedProfile[] = ['demo', 'synthetic']
export { DEFAULT_SYNTHETIC, type SyntheticSize } from './synthetic'

export interface SeedOptions {
  readonly profile: SeedProfile
  /** Any string; the default gives everyone the same demo. */
  readonly seed?: string
  /** The moment demo content leads up to (default: the current time). */
  readonly now?: Date
  /** Origin for URLs stored with events (default: the server's external URL, else http://localhost). */
  readonly baseUrl?: string
  /** Sizes of the synthetic profile. */
  readonly synthetic?: Partial<SyntheticSize>
}

export interface SeedReport {
  readonly profile: SeedProfile
  readonly seed: string
  /** What the instance holds afterwards. */
  readonly counts: ContentCounts
  readonly durationMs: number
}

export const DEFAULT_SEED = 'burrow'

/** Seeds the instance now (whatever it already holds) and records the run. */
export async function seedInstance(ctx: ServerContext, options: SeedOptions): Promise<SeedReport> {
  const started = performance.now()
  const seed = options.seed ?? DEFAULT_SEED
  const now = options.now ?? new Date()
  const size: SyntheticSize = { ...DEFAULT_SYNTHETIC, ...options.synthetic }
  const parameters = options.profile === 'demo' ? { now: now.toISOString() } : { ...size, now: now.toISOString() }
  // Recorded before writing anything, so an interrupted run is known as such on the next start.
  const run = startSeedRun(ctx.db, { profile: options.profile, seed, parameters })
  if (options.profile === 'demo') await seedDemo(ctx, { seed, now, baseUrl: options.baseUrl ?? ctx.baseUrl() })
  else await seedSynthetic(ctx, { seed, size, now })
  const durationMs = Math.round(performance.now() - started)
  const counts = contentCounts(ctx.db)
  finishSeedRun(ctx.db, run, { counts, durationMs })
  return { profile: options.profile, seed, counts, durationMs }
}

/** Why a first-start seed did not run. */
export type SeedSkipped =
  | { readonly skipped: 'already-seeded'; readonly run: SeedRunRow }
  /** An earlier first-start seed was stopped half-way: its partial content stays as it is. */
  | { readonly skipped: 'interrupted'; readonly run: SeedRunRow }
  | { readonly skipped: 'has-content' }

/**
 * Seeds on an instance's first start only: never twice (runs are recorded in `seed_runs`), and
 * never into an instance that already holds users' groups or projects.
 */
export async function seedOnFirstStart(ctx: ServerContext, options: SeedOptions): Promise<SeedReport | SeedSkipped> {
  const run = firstSeedRun(ctx.db)
  if (run) return { skipped: run.finished_at === null ? 'interrupted' : 'already-seeded', run }
  if (hasUserContent(ctx.db)) return { skipped: 'has-content' }
  return seedInstance(ctx, options)
}

/** One line saying what a seed run wrote. */
export function describeSeed(report: SeedReport): string {
  const c = report.counts
  return (
    `seeded ${report.profile} content (seed "${report.seed}") in ${(report.durationMs / 1000).toFixed(1)} s: ` +
    `${c.users} users, ${c.groups} groups, ${c.projects} projects, ${c.issues} issues, ${c.merge_requests} merge requests, ` +
    `${c.notes} notes, ${c.labels} labels, ${c.milestones} milestones, ${c.epics} epics, ${c.todos} to-dos, ` +
    `${c.runners} runners, ${c.pipelines} pipelines, ${c.jobs} jobs, ${c.environments} environments, ${c.alerts} alerts, ${c.vulnerabilities} vulnerabilities`
  )
}

/** One line saying why a first-start seed did not run. */
export function skippedSeed(result: SeedSkipped, dataDir: string): string {
  switch (result.skipped) {
    case 'already-seeded':
      return `content was seeded on ${result.run.created_at} (${result.run.profile}); not seeding again`
    case 'interrupted':
      return `seeding ${result.run.profile} content was interrupted on ${result.run.created_at}; the partial content stays (remove ${dataDir} to start over)`
    case 'has-content':
      return 'already holds groups or projects; not seeding'
  }
}
