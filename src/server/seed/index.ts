/**
 * Seeding an instance with content: `demo` (a small company's forge for `npm start`) or
 * `synthetic` (large, parameterised data sets for benchmarks). Both write rows the services
 * would write; the same seed gives the same content.
 */
import type { ServerContext } from '../context'
import { contentCounts, firstSeedRun, hasUserContent, insertSeedRun, type ContentCounts, type SeedRunRow } from '../db/seed'
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
  let parameters: object
  if (options.profile === 'demo') {
    const now = options.now ?? new Date()
    parameters = { now: now.toISOString() }
    await seedDemo(ctx, { seed, now, baseUrl: options.baseUrl ?? ctx.baseUrl() })
  } else {
    const size: SyntheticSize = { ...DEFAULT_SYNTHETIC, ...options.synthetic }
    parameters = size
    await seedSynthetic(ctx, { seed, size, now: options.now ?? new Date() })
  }
  const durationMs = Math.round(performance.now() - started)
  const counts = contentCounts(ctx.db)
  insertSeedRun(ctx.db, { profile: options.profile, seed, parameters, counts, durationMs })
  return { profile: options.profile, seed, counts, durationMs }
}

/** Why a first-start seed did not run. */
export type SeedSkipped = { readonly skipped: 'already-seeded'; readonly run: SeedRunRow } | { readonly skipped: 'has-content' }

/**
 * Seeds on an instance's first start only: never twice (runs are recorded in `seed_runs`), and
 * never into an instance that already holds users' groups or projects.
 */
export async function seedOnFirstStart(ctx: ServerContext, options: SeedOptions): Promise<SeedReport | SeedSkipped> {
  const run = firstSeedRun(ctx.db)
  if (run) return { skipped: 'already-seeded', run }
  if (hasUserContent(ctx.db)) return { skipped: 'has-content' }
  return seedInstance(ctx, options)
}

/** One line saying what a seed run wrote. */
export function describeSeed(report: SeedReport): string {
  const c = report.counts
  return (
    `seeded ${report.profile} content (seed "${report.seed}") in ${(report.durationMs / 1000).toFixed(1)} s: ` +
    `${c.users} users, ${c.groups} groups, ${c.projects} projects, ${c.issues} issues, ${c.merge_requests} merge requests, ` +
    `${c.notes} notes, ${c.labels} labels, ${c.milestones} milestones, ${c.epics} epics, ${c.todos} to-dos`
  )
}
