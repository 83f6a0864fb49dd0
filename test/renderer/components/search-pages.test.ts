// @vitest-environment jsdom
import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createApp, effectScope } from 'vue'
import { describe, expect, it } from 'vitest'
import { bridgeKey } from '../../../src/renderer/bridge'
import { useSearchPages } from '../../../src/renderer/composables/use-search-pages'
import type { SearchHit, SearchParams, SearchResult } from '../../../src/shared/ipc/cache'
import { fakeTransport } from '../support/fake-bridge'

/** An app context providing the bridge and the stores, for composables run outside a component. */
function hostWith(bridge: ReturnType<typeof fakeTransport>['bridge']) {
  const app = createApp({ render: () => null })
  const pinia = createPinia()
  app.provide(bridgeKey, bridge).use(pinia)
  setActivePinia(pinia)
  return app
}

/** search:query answered from `count` hits per account; account `a` scores 1, 3, 5…, `b` scores 2, 4, 6…. */
function searching(counts: Record<string, number>) {
  const calls: { accountId: string; offset: number; limit: number }[] = []
  const transport = fakeTransport({
    'search:query': (accountId: unknown, params: unknown) => {
      const { offset = 0, limit = 50 } = params as SearchParams
      const account = String(accountId)
      calls.push({ accountId: account, offset, limit })
      const total = counts[account] ?? 0
      const hits: SearchHit[] = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => {
        const n = offset + i
        return {
          kind: 'issue',
          id: n,
          project_id: 1,
          group_id: null,
          iid: n,
          title: `${account} ${n}`,
          state: 'opened',
          web_url: null,
          path: 'g/p',
          reference: `g/p#${n}`,
          matched_in: 'title',
          snippet: [],
          score: 2 * n + (account === 'a' ? 1 : 2),
        }
      })
      return { ok: true, result: { hits, total, exact: account !== 'b' } satisfies SearchResult }
    },
  })
  const app = hostWith(transport.bridge)
  const scope = effectScope()
  const pages = app.runWithContext(() =>
    scope.run(() =>
      useSearchPages({
        key: () => 'q',
        accounts: () => Object.keys(counts),
        params: () => ({ query: 'parser' }),
        pageSize: 50,
      }),
    ),
  )
  if (!pages) throw new Error('no pages')
  return { pages, calls }
}

describe('useSearchPages', () => {
  it('shows the first 50 hits of all accounts by score, then the next 50 on demand, until there are no more', async () => {
    const { pages, calls } = searching({ a: 70, b: 40 })
    await flushPromises()
    expect(pages.total.value).toBe(110)
    expect(pages.exact.value).toBe(false)
    expect(pages.hits.value).toHaveLength(50)
    expect(pages.hits.value.slice(0, 3).map((h) => h.hit.title)).toEqual(['a 0', 'b 0', 'a 1'])
    expect(pages.hasMore.value).toBe(true)
    await pages.loadMore()
    expect(pages.hits.value).toHaveLength(100)
    await pages.loadMore()
    expect(pages.hits.value).toHaveLength(110)
    expect(pages.hits.value.map((h) => h.hit.score)).toEqual(
      [...pages.hits.value.map((h) => h.hit.score)].sort((x, y) => x - y),
    )
    expect(pages.hasMore.value).toBe(false)
    expect(calls.filter((c) => c.accountId === 'a').map((c) => c.offset)).toEqual([0, 50])
  })

  it('asks nothing while there is no query', async () => {
    const transport = fakeTransport({})
    const app = hostWith(transport.bridge)
    const pages = app.runWithContext(() =>
      effectScope().run(() => useSearchPages({ key: () => '', accounts: () => ['a'], params: () => null })),
    )
    await flushPromises()
    expect(pages?.asked.value).toBe(false)
    expect(transport.calls).toEqual([])
  })
})
