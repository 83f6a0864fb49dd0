import { parseArgs } from 'node:util'
import { buildApp } from './app'
import { describeSeed, SEED_PROFILES, seedOnFirstStart, skippedSeed, type SeedProfile } from './seed/index'

/**
 * `npm run server -- --host 127.0.0.1 --port PORT --data-dir DIR` (DESIGN.md, "Server contract").
 * `--seed demo|synthetic` seeds content on the instance's first start (never twice: runs are
 * recorded in the database) before the server listens; `--seed-now ISO` fixes the moment demo
 * content leads up to, so a given seed is reproduced exactly.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '3000' },
      'data-dir': { type: 'string', default: '.burrow/server' },
      'external-url': { type: 'string' },
      storage: { type: 'string', multiple: true },
      'geo-node-name': { type: 'string' },
      log: { type: 'boolean', default: false },
      seed: { type: 'string' },
      'seed-now': { type: 'string' },
    },
    allowPositionals: false,
  })
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be an integer from 0 to 65535, got ${values.port}`)
  const seedProfile = values.seed as SeedProfile | undefined
  if (seedProfile !== undefined && !SEED_PROFILES.includes(seedProfile))
    throw new Error(`--seed must be one of ${SEED_PROFILES.join(', ')}, got ${values.seed}`)
  const seedNow = values['seed-now'] !== undefined ? new Date(values['seed-now']) : undefined
  if (seedNow !== undefined && Number.isNaN(seedNow.getTime()))
    throw new Error(`--seed-now must be an ISO 8601 time, got ${values['seed-now']}`)
  const app = await buildApp({
    dataDir: values['data-dir'] as string,
    rootToken: process.env.BURROW_ROOT_TOKEN || undefined,
    externalUrl: values['external-url'],
    storages: values.storage,
    settings: values['geo-node-name'] !== undefined ? { geo_node_name: values['geo-node-name'] } : undefined,
    logger: values.log,
  })
  if (seedProfile !== undefined) {
    // Seeded before listening: once the server answers, its content is complete.
    const baseUrl = values['external-url'] ?? (port !== 0 ? `http://${values.host}:${port}` : undefined)
    const result = await seedOnFirstStart(app.burrow, { profile: seedProfile, now: seedNow, baseUrl })
    process.stdout.write(
      `Burrow Server ${'skipped' in result ? skippedSeed(result, values['data-dir'] as string) : describeSeed(result)}\n`,
    )
  }
  const address = await app.listen({ host: values.host, port })
  process.stdout.write(`Burrow Server listening on ${address}\n`)
  const stop = (): void => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  process.stderr.write(`burrow server: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
