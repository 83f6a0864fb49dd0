/**
 * The review benchmark's Burrow Server, a process of its own: an empty instance (root only) that
 * the benchmark fills through the API and git, then listens.
 *
 *   tsx bench/lib/review-server.ts DATA_DIR PORT
 *
 * BURROW_ROOT_TOKEN gives root's token, as for `npm run server`. Prints `ready` once listening.
 */
import { buildApp } from '../../src/server/app'

const [dataDir, port] = process.argv.slice(2)
const app = await buildApp({ dataDir, rootToken: process.env.BURROW_ROOT_TOKEN })
await app.listen({ host: '127.0.0.1', port: Number(port) })
process.stdout.write('ready\n')
const stop = (): void => void app.close().then(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
