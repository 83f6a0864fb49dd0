// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import { useProjectUsers, type ProjectUsers } from '../../../src/renderer/composables/use-project-users'
import type { UserRef } from '../../../src/renderer/lib/items'
import { fakeTransport } from '../support/fake-bridge'

/*
 * The people pickers' source: the project's users (GitLab's GET /projects/:id/users, members of
 * the project and its groups), read through api:get (the URL cache serves them offline).
 */

enableAutoUnmount(afterEach)
beforeEach(() => setActivePinia(createPinia()))

const user = (id: number, username: string, name: string): UserRef => ({ id, username, name, avatar_url: null })
const amara = user(2, 'amara', 'Amara Okafor')
const jonas = user(7, 'jonas', 'Jonas Berg')
const outsider = user(9, 'outsider', 'Not A Member')
const leaver = user(11, 'leaver', 'Left The Project')

type Answers = Parameters<typeof fakeTransport>[0]
const answer = (body: unknown, nextPage: number | null = null) => ({
  ok: true as const,
  result: {
    body,
    status: 200,
    stale: false,
    fetchedAt: '2024-05-01T10:00:00Z',
    page: { total: null, totalPages: null, nextPage, page: 1, perPage: 100 },
  },
})

function mountUsers(answers: Answers, projectId = ref<number | null>(5), keep: readonly UserRef[] = []) {
  const transport = fakeTransport({ 'users:list': { ok: true, result: [outsider] }, ...answers })
  let people: ProjectUsers | undefined
  const Host = defineComponent({
    setup() {
      people = useProjectUsers(
        () => 'acc',
        () => projectId.value,
        () => keep,
      )
      return () => h('div')
    },
  })
  mount(Host, { global: { provide: { [bridgeKey as symbol]: transport.bridge } } })
  if (people === undefined) throw new Error('not set up')
  return { people, transport, projectId }
}
const labels = (people: ProjectUsers) => people.select.value.options.map((o) => o.label)
const usersReads = (transport: ReturnType<typeof fakeTransport>) =>
  transport.calls.filter((c) => c.channel === 'api:get').map((c) => [c.args[1], c.args[2]])

describe('useProjectUsers', () => {
  it("offers the project's users, not the account's, with the ones to keep, searched locally when one page holds them all", async () => {
    const { people, transport } = mountUsers({ 'api:get': answer([amara, jonas]) }, undefined, [leaver])
    await flushPromises()
    expect(usersReads(transport)).toEqual([['/projects/5/users', { per_page: 100 }]])
    expect(labels(people)).toEqual(['Amara Okafor (@amara)', 'Jonas Berg (@jonas)', 'Left The Project (@leaver)'])
    expect(people.select.value.remote).toBe(false)
    people.select.value.onSearch('jo')
    await flushPromises()
    expect(usersReads(transport)).toHaveLength(1)
    expect(people.userOf(7)).toEqual(jonas)
    expect(people.userOf(11)).toEqual(leaver)
    expect(people.fallback.value).toBe(false)
  })

  it('searches the server when the project has more people than one page, and reads again for another project', async () => {
    const { people, transport, projectId } = mountUsers({
      'api:get': (_account, path, query) => {
        const search = (query as { search?: string }).search
        if (path === '/projects/5/users')
          return search === 'zed' ? answer([user(300, 'zed', 'Zed')]) : answer([amara], 2)
        return answer([jonas])
      },
    })
    await flushPromises()
    people.select.value.onSearch('zed')
    await flushPromises()
    expect(usersReads(transport)).toContainEqual(['/projects/5/users', { per_page: 100, search: 'zed' }])
    expect(labels(people)).toEqual(['Zed (@zed)'])
    expect(people.select.value.remote).toBe(true)
    expect(people.userOf(300)?.username).toBe('zed')
    people.select.value.onSearch('')
    expect(labels(people)).toEqual(['Amara Okafor (@amara)'])
    projectId.value = 8
    await flushPromises()
    expect(labels(people)).toEqual(['Jonas Berg (@jonas)'])
  })

  it("falls back to the account's cached users when the project's cannot be read (offline, never read)", async () => {
    const { people } = mountUsers({ 'api:get': { ok: false, error: { code: 'offline', message: 'offline' } } })
    await flushPromises()
    expect(labels(people)).toEqual(['Not A Member (@outsider)'])
    expect(people.fallback.value).toBe(true)
  })
})
