/**
 * Child process of bench/sync.ts: opens a cache file holding many issues and does what the
 * main process does while a user browses (first page of the list, a filtered page, a search,
 * a detail), then prints its resident set size in MB. Run alone so nothing else inflates it.
 */
import { Cache, CacheReader, openCacheDatabase, searchCache } from '../../src/main/core/cache/index'

const [file, accountId] = process.argv.slice(2)
const cache = new Cache(openCacheDatabase(file))
const reader = new CacheReader(cache)
reader.listIssues(accountId, { limit: 100 }, null)
reader.listIssues(accountId, { state: 'opened', labels: 'bug', order_by: 'updated_at', limit: 100, offset: 5000 }, null)
searchCache(cache, accountId, { query: 'parser crash' })
reader.detail(accountId, 'issue', { id: 1 })
if (global.gc) global.gc()
process.stdout.write(`${JSON.stringify({ rss_mb: process.memoryUsage().rss / 1024 / 1024 })}\n`)
cache.close()
