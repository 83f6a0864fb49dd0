// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia } from 'pinia'
import { defineComponent, h, ref } from 'vue'
import { afterEach, describe, expect, it } from 'vitest'
import { bridgeKey } from '../../src/renderer/bridge'
import { useCachedQuery, type CachedQuery } from '../../src/renderer/composables/use-cached-query'
import { fakeTransport } from './support/fake-bridge'

/*
 * useCachedQuery as a detail page uses it: the route's key changes, the old answer stays while
 * the new one loads, and goes when the new one fails (an item that does not exist).
 */

enableAutoUnmount(afterEach)

/** A query of `key` whose load answers from `answers` (a function throws), each load held until `release()`. */
function mountQuery(answers: Record<number, string | (() => never)>) {
  const key = ref(1)
  const held: (() => void)[] = []
  let query: CachedQuery<string> | null = null
  const Host = defineComponent(() => {
    query = useCachedQuery(
      key,
      () => ['account'],
      ['issue'],
      async () => {
        const answer = answers[key.value]
        await new Promise<void>((resolve) => held.push(resolve))
        return typeof answer === 'function' ? answer() : (answer ?? '')
      },
    )
    return () => h('p')
  })
  mount(Host, { global: { plugins: [createPinia()], provide: { [bridgeKey as symbol]: fakeTransport({}).bridge } } })
  const release = async (): Promise<void> => {
    for (const resolve of held.splice(0)) resolve()
    await flushPromises()
  }
  if (query === null) throw new Error('not mounted')
  return { key, query: query as CachedQuery<string>, release }
}

describe('useCachedQuery when its key changes', () => {
  it('keeps the last answer while the next key loads, and shows the next one once it is there', async () => {
    const { key, query, release } = mountQuery({ 1: 'issue 1', 2: 'issue 2' })
    await release()
    expect(query.data.value).toBe('issue 1')
    key.value = 2
    await flushPromises()
    expect(query.data.value).toBe('issue 1')
    await release()
    expect(query.data.value).toBe('issue 2')
    expect(query.error.value).toBeNull()
  })

  it('drops the earlier key’s answer when the new key fails: the error is not shown beside another item', async () => {
    const { key, query, release } = mountQuery({
      1: 'issue 1',
      2: () => {
        throw { code: 'not-found', message: 'That issue is not on the server' }
      },
    })
    await release()
    expect(query.data.value).toBe('issue 1')
    key.value = 2
    await flushPromises()
    await release()
    expect(query.error.value?.message).toContain('not on the server')
    expect(query.data.value).toBeNull()
  })

  it('keeps the earlier answer when the new key cannot be read now (offline): the key also moves with the item itself', async () => {
    const { key, query, release } = mountQuery({
      1: 'issue 1',
      2: () => {
        throw { code: 'offline', message: 'Cannot reach the server' }
      },
    })
    await release()
    key.value = 2
    await flushPromises()
    await release()
    expect(query.error.value?.message).toContain('Cannot reach')
    expect(query.data.value).toBe('issue 1')
  })

  it('keeps its own answer when a reload of the same key fails (offline, the copy on this computer stays)', async () => {
    let fail = false
    const { query, release } = mountQuery({
      1: () => {
        if (fail) throw new Error('Cannot reach the server')
        return 'issue 1' as never
      },
    })
    await release()
    expect(query.data.value).toBe('issue 1')
    fail = true
    const reloading = query.reload()
    await release()
    await reloading
    expect(query.error.value?.message).toContain('Cannot reach')
    expect(query.data.value).toBe('issue 1')
  })
})
