import { parseArgs } from 'node:util'
import { buildApp } from '../app'
import {
  DEFAULT_SYNTHETIC,
  describeSeed,
  SEED_PROFILES,
  seedInstance,
  seedOnFirstStart,
  skippedSeed,
  type SeedOptions,
  type SeedProfile,
} from './index'

/**
 * `npm run seed -- --data-dir DIR [--profile demo|synthetic] [--seed S] [--now ISO]
 *   [--issues N] [--merge-requests M] [--notes-per-item K] [--projects P] [--users U] [--force]`
 *
 * Seeds a server data directory without starting the server. An instance that was seeded before
 * or holds groups or projects is left alone unless `--force`.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      profile: { type: 'string', default: 'demo' },
      seed: { type: 'string' },
      now: { type: 'string' },
      'external-url': { type: 'string' },
      issues: { type: 'string' },
      'merge-requests': { type: 'string' },
      'notes-per-item': { type: 'string' },
      projects: { type: 'string' },
      users: { type: 'string' },
      force: { type: 'boolean', default: false },
    },
    allowPositionals: false,
  })
  const dataDir = values['data-dir']
  if (!dataDir) throw new Error('--data-dir is required')
  const profile = values.profile as SeedProfile
  if (!SEED_PROFILES.includes(profile)) throw new Error(`--profile must be one of ${SEED_PROFILES.join(', ')}`)
  const now = values.now !== undefined ? new Date(values.now) : undefined
  if (now !== undefined && Number.isNaN(now.getTime()))
    throw new Error(`--now must be an ISO 8601 time, got ${values.now}`)
  const count = (name: string, raw: string | undefined): number | undefined => {
    if (raw === undefined) return undefined
    const n = Number(raw)
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got ${raw}`)
    return n
  }
  const options: SeedOptions = {
    profile,
    seed: values.seed,
    now,
    synthetic: {
      issues: count('issues', values.issues) ?? DEFAULT_SYNTHETIC.issues,
      mergeRequests: count('merge-requests', values['merge-requests']) ?? DEFAULT_SYNTHETIC.mergeRequests,
      notesPerItem: count('notes-per-item', values['notes-per-item']) ?? DEFAULT_SYNTHETIC.notesPerItem,
      projects: count('projects', values.projects) ?? DEFAULT_SYNTHETIC.projects,
      users: count('users', values.users) ?? DEFAULT_SYNTHETIC.users,
    },
  }
  const app = await buildApp({ dataDir, externalUrl: values['external-url'] })
  try {
    const result = values.force ? await seedInstance(app.burrow, options) : await seedOnFirstStart(app.burrow, options)
    if ('skipped' in result) {
      process.stdout.write(`${dataDir}: ${skippedSeed(result, dataDir)}; --force seeds anyway\n`)
      return
    }
    process.stdout.write(`${describeSeed(result)}\n`)
  } finally {
    await app.close()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`burrow seed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
