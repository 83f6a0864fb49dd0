/**
 * The UI benchmark's Burrow Server, a process of its own: the `synthetic` profile (10k issues and
 * 2k merge requests in 5 projects by default, from src/server/seed) without comments, so the
 * desktop sync has no discussions to fetch and the cache fills in seconds; then it listens.
 *
 *   tsx bench/lib/ui-server.ts DATA_DIR PORT ISSUES MERGE_REQUESTS
 *
 * BURROW_ROOT_TOKEN gives root's token, as for `npm run server`. Prints `ready` once listening.
 */
import { buildApp } from '../../src/server/app'
import { seedInstance } from '../../src/server/seed/index'

const [dataDir, port, issues, mergeRequests] = process.argv.slice(2)
const app = await buildApp({ dataDir, rootToken: process.env.BURROW_ROOT_TOKEN })
await seedInstance(app.burrow, {
  profile: 'synthetic',
  baseUrl: `http://127.0.0.1:${port}`,
  synthetic: { issues: Number(issues), mergeRequests: Number(mergeRequests), notesPerItem: 0 },
})
await app.listen({ host: '127.0.0.1', port: Number(port) })
process.stdout.write('ready\n')
const stop = (): void => void app.close().then(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
