// @vitest-environment jsdom
import { createTestingPinia } from '@pinia/testing'
import { flushPromises, mount } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import ResourceActions from '../../../src/renderer/components/resource/ResourceActions.vue'
import ResourceDetail from '../../../src/renderer/components/resource/ResourceDetail.vue'
import ResourceForm from '../../../src/renderer/components/resource/ResourceForm.vue'
import ResourceList from '../../../src/renderer/components/resource/ResourceList.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import { adminRunners, adminUsers } from '../../../src/renderer/resources/admin'
import { projectBadges } from '../../../src/renderer/resources/badges'
import { groupVariables } from '../../../src/renderer/resources/group-ci'
import { projectEnvironments, projectPipelines } from '../../../src/renderer/resources/project'
import type { ResourceDescription } from '../../../src/renderer/resources/types'
import type { IpcResponse } from '../../../src/shared/ipc/contract'
import { fakeTransport, ROOT_ACCOUNT } from '../support/fake-bridge'

/*
 * The generic resource panels driven by real descriptions (admin users, all runners, project
 * environments), over a fake of the preload's transport that answers `api:get` and `api:send`.
 */

const ADMIN = { admin: true, level: null }
const context = { accountId: ROOT_ACCOUNT.id, userId: 1, projectId: 12, groupId: null }

const RUNNERS = [
  {
    id: 1,
    description: 'linux-docker-1',
    runner_type: 'instance_type',
    status: 'online',
    ip_address: '10.0.0.1',
    paused: false,
    created_at: '2024-01-01T00:00:00Z',
  },
  {
    id: 2,
    description: 'macos-arm64',
    runner_type: 'project_type',
    status: 'paused',
    ip_address: '10.0.0.2',
    paused: true,
    created_at: '2024-01-02T00:00:00Z',
  },
]

function page(
  body: unknown,
  extra: Partial<{ total: number; totalPages: number; nextPage: number | null; page: number }> = {},
  stale = false,
): IpcResponse {
  return {
    ok: true,
    result: {
      body,
      status: 200,
      stale,
      fetchedAt: '2024-05-01T10:00:00Z',
      page: { total: 2, totalPages: 1, nextPage: null, page: 1, perPage: 20, ...extra },
    },
  }
}

function setup(answers: Record<string, IpcResponse | ((...args: readonly unknown[]) => IpcResponse)>, offline = false) {
  const transport = fakeTransport(answers)
  const pinia = createTestingPinia({
    createSpy: vi.fn,
    stubActions: false,
    initialState: offline
      ? { sync: { statuses: { [ROOT_ACCOUNT.id]: { accountId: ROOT_ACCOUNT.id, state: 'offline' } } } }
      : {},
  })
  const global = { plugins: [pinia], provide: { [bridgeKey as symbol]: transport.bridge } }
  return { transport, global }
}

const gets = (calls: readonly { channel: string; args: readonly unknown[] }[]) =>
  calls.filter((c) => c.channel === 'api:get').map((c) => ({ path: c.args[1], query: c.args[2] }))
const sends = (calls: readonly { channel: string; args: readonly unknown[] }[]) =>
  calls.filter((c) => c.channel === 'api:send').map((c) => c.args[1])

afterEach(() => {
  document.body.innerHTML = ''
})

describe('ResourceList', () => {
  it('shows the description’s columns and the rows of its list endpoint', async () => {
    const { global } = setup({ 'api:get': page(RUNNERS) })
    const wrapper = mount(ResourceList, { props: { description: adminRunners, context, viewer: ADMIN }, global })
    await flushPromises()
    const headers = wrapper.findAll('[role="columnheader"]').map((h) => h.text())
    expect(headers).toEqual(['Runner', 'ID', 'Type', 'Status', 'IP address', 'Registered', 'Actions'])
    const rows = wrapper.findAll('[data-testid="resource-row"]')
    expect(rows).toHaveLength(2)
    expect(rows[0].text()).toContain('linux-docker-1')
    expect(rows[0].text()).toContain('Online')
    expect(wrapper.get('[data-testid="resource-total"]').text()).toBe('2 in all')
    // Pause shows for the running one, Resume for the paused one.
    expect(rows[0].find('[data-testid="action-pause"]').exists()).toBe(true)
    expect(rows[1].find('[data-testid="action-resume"]').exists()).toBe(true)
  })

  it('sends filters as the API’s query parameters, and a page change as `page`', async () => {
    const { transport, global } = setup({ 'api:get': page(RUNNERS, { total: 45, totalPages: 3, nextPage: 2 }) })
    const wrapper = mount(ResourceList, {
      props: {
        description: adminRunners,
        context,
        viewer: ADMIN,
        initialFilters: { type: 'project_type', tag_list: ['docker'] },
      },
      global,
    })
    await flushPromises()
    expect(gets(transport.calls)).toEqual([
      { path: '/runners/all', query: { per_page: 20, type: 'project_type', tag_list: ['docker'], page: 1 } },
    ])
    await wrapper
      .get('[data-testid="resource-pager"]')
      .findAll('.n-pagination-item')
      .find((i) => i.text() === '2')
      ?.trigger('click')
    await flushPromises()
    expect(gets(transport.calls).at(-1)).toEqual({
      path: '/runners/all',
      query: { per_page: 20, type: 'project_type', tag_list: ['docker'], page: 2 },
    })
    expect(wrapper.emitted('change')?.at(-1)).toEqual([
      { filters: { type: 'project_type', tag_list: ['docker'] }, page: 2 },
    ])
  })

  it('a flag filter is sent as `=true` and a search after typing stops', async () => {
    vi.useFakeTimers()
    try {
      const { transport, global } = setup({ 'api:get': page([]) })
      const wrapper = mount(ResourceList, { props: { description: adminUsers, context, viewer: ADMIN }, global })
      await flushPromises()
      await wrapper.get('[data-testid="filter-blocked"]').trigger('click')
      await flushPromises()
      expect(gets(transport.calls).at(-1)?.query).toEqual({ per_page: 20, blocked: true, page: 1 })
      await wrapper.get('[data-testid="filter-search"] input').setValue('ada')
      await flushPromises()
      expect(gets(transport.calls).at(-1)?.query).not.toHaveProperty('search')
      vi.advanceTimersByTime(300)
      await flushPromises()
      expect(gets(transport.calls).at(-1)?.query).toEqual({ per_page: 20, blocked: true, search: 'ada', page: 1 })
      expect(wrapper.get('[data-testid="resource-empty"]').text()).toBe('No users match these filters.')
    } finally {
      vi.useRealTimers()
    }
  })

  it('fills `:project` from the context, and asks for one when there is none', async () => {
    const { transport, global } = setup({ 'api:get': page([]) })
    const wrapper = mount(ResourceList, {
      props: { description: projectEnvironments, context: { ...context, projectId: null }, viewer: ADMIN },
      global,
    })
    await flushPromises()
    expect(wrapper.get('[data-testid="resource-missing"]').text()).toBe('Choose a project first.')
    expect(gets(transport.calls)).toEqual([])
    await wrapper.setProps({ context })
    await flushPromises()
    expect(gets(transport.calls)).toEqual([{ path: '/projects/12/environments', query: { per_page: 20, page: 1 } }])
  })

  it('offline: shows the reason, marks the copy stale, and disables every write', async () => {
    const { transport, global } = setup({ 'api:get': page(RUNNERS, {}, true) }, true)
    const wrapper = mount(ResourceList, { props: { description: adminUsers, context, viewer: ADMIN }, global })
    await flushPromises()
    expect(wrapper.get('[data-testid="resource-stale"]').text()).toContain('Offline copy from')
    const reason = wrapper.get('[data-testid="resource-blocked"]').text()
    expect(reason).toContain('Needs the server: Changes here go straight to the server and are not kept for later')
    expect(wrapper.get('[data-testid="resource-create"]').attributes('disabled')).toBeDefined()
    const block = wrapper.findAll('[data-testid="action-delete"]')[0]
    expect(block.attributes('disabled')).toBeDefined()
    expect(block.attributes('title')).toBe(reason)
    await block.trigger('click')
    expect(sends(transport.calls)).toEqual([])
  })

  it('an API refusal reads as what happened, with a retry', async () => {
    const { global } = setup({
      'api:get': { ok: false, error: { code: 'forbidden', message: '403 Forbidden', details: { status: 403 } } },
    })
    const wrapper = mount(ResourceList, {
      props: { description: adminUsers, context, viewer: { admin: false, level: null } },
      global,
    })
    await flushPromises()
    const error = wrapper.get('[data-testid="resource-error"]')
    expect(error.text()).toContain('Not allowed')
    expect(error.text()).toContain('403 Forbidden')
  })
})

describe('ResourceActions', () => {
  const user = { id: 7, username: 'ada', state: 'active' }

  it('asks before a confirmed action, and sends it only once confirmed', async () => {
    const { transport, global } = setup({ 'api:send': { ok: true, result: { status: 201, body: true } } })
    const wrapper = mount(ResourceActions, {
      props: { actions: adminUsers.actions ?? [], item: user, context, viewer: ADMIN },
      global,
      attachTo: document.body,
    })
    expect(wrapper.find('[data-testid="action-unblock"]').exists()).toBe(false)
    await wrapper.get('[data-testid="action-block"]').trigger('click')
    await flushPromises()
    expect(document.body.textContent).toContain('Block @ada? They can no longer sign in or use their tokens.')
    expect(sends(transport.calls)).toEqual([])
    const confirm = [...document.querySelectorAll<HTMLButtonElement>('.n-dialog__action button')].find(
      (b) => b.textContent?.trim() === 'Block',
    )
    confirm?.click()
    await flushPromises()
    expect(sends(transport.calls)).toEqual([{ method: 'POST', path: '/users/7/block' }])
    expect(wrapper.emitted('done')?.[0]?.[0]).toMatchObject({ action: { key: 'block' }, result: { status: 201 } })
  })

  it('cancelling the confirmation sends nothing', async () => {
    const { transport, global } = setup({ 'api:send': { ok: true, result: { status: 201, body: true } } })
    const wrapper = mount(ResourceActions, {
      props: { actions: adminUsers.actions ?? [], item: user, context, viewer: ADMIN },
      global,
      attachTo: document.body,
    })
    await wrapper.get('[data-testid="action-block"]').trigger('click')
    await flushPromises()
    ;[...document.querySelectorAll<HTMLButtonElement>('.n-dialog__action button')]
      .find((b) => b.textContent?.trim() === 'Cancel')
      ?.click()
    await flushPromises()
    expect(sends(transport.calls)).toEqual([])
    expect(wrapper.emitted('done')).toBeUndefined()
  })

  it('an action with a form sends its values where the description says (review-app cleanup: the query)', async () => {
    const { transport, global } = setup({
      'api:send': { ok: true, result: { status: 200, body: { scheduled_entries: [], unprocessable_entries: [] } } },
    })
    const cleanup = (projectEnvironments.actions ?? []).filter((a) => a.key === 'review-apps')
    const wrapper = mount(ResourceActions, {
      props: { actions: cleanup, context, viewer: ADMIN },
      global,
      attachTo: document.body,
    })
    await wrapper.get('[data-testid="action-review-apps"]').trigger('click')
    await flushPromises()
    const submit = document.querySelector<HTMLButtonElement>('[data-testid="form-submit"]')
    expect(submit?.textContent).toContain('Find review apps')
    submit?.click()
    await flushPromises()
    expect(sends(transport.calls)).toEqual([
      { method: 'DELETE', path: '/projects/12/environments/review_apps', query: { limit: 100, dry_run: true } },
    ])
  })

  it('an action needing a role the viewer lacks is disabled, and says which', async () => {
    const { global } = setup({})
    const cleanup = (projectEnvironments.actions ?? []).filter((a) => a.key === 'review-apps')
    const wrapper = mount(ResourceActions, {
      props: { actions: cleanup, context, viewer: { admin: false, level: 20 } },
      global,
    })
    const button = wrapper.get('[data-testid="action-review-apps"]')
    expect(button.attributes('disabled')).toBeDefined()
    expect(button.attributes('title')).toBe('Needs the Developer role.')
  })
})

describe('ResourceForm', () => {
  const spec = adminUsers.create!

  function mountForm(
    submit = vi.fn(async () => undefined),
    extra: { blocked?: string | null; description?: ResourceDescription } = {},
  ) {
    const { global } = setup({})
    return { submit, wrapper: mount(ResourceForm, { props: { spec, submit, blocked: extra.blocked ?? null }, global }) }
  }

  const fill = async (wrapper: ReturnType<typeof mountForm>['wrapper'], name: string, value: string) =>
    wrapper.get(`[data-testid="field-${name}"] input`).setValue(value)

  it('validates required fields and the password rule before submitting', async () => {
    const { wrapper, submit } = mountForm()
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    const invalid = wrapper.findAll('[data-invalid="true"]').map((f) => f.attributes('data-testid'))
    expect(invalid).toEqual(['field-name', 'field-username', 'field-email', 'field-password'])
    expect(wrapper.get('[data-testid="field-password"]').text()).toContain(
      'Give a password, or choose a reset link or a random password.',
    )
    expect(submit).not.toHaveBeenCalled()
  })

  it('hides the password when a reset link is chosen, and sends the values by their API names', async () => {
    const { wrapper, submit } = mountForm()
    await fill(wrapper, 'name', 'Ada Lovelace')
    await fill(wrapper, 'username', 'ada')
    await fill(wrapper, 'email', 'ada@example.com')
    await wrapper.get('[data-testid="field-reset_password"] .n-checkbox').trigger('click')
    expect(wrapper.find('[data-testid="field-password"]').exists()).toBe(false)
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    expect(submit).toHaveBeenCalledWith({
      body: {
        name: 'Ada Lovelace',
        username: 'ada',
        email: 'ada@example.com',
        reset_password: true,
        force_random_password: false,
        skip_confirmation: true,
        admin: false,
        external: false,
        can_create_group: true,
      },
      query: {},
      path: {},
    })
  })

  it('puts GitLab’s field errors next to the fields', async () => {
    const submit = vi.fn(async () => {
      throw Object.assign(new Error('email has already been taken'), {
        code: 'conflict',
        details: { status: 409, body: { message: { email: ['has already been taken'] } } },
      })
    })
    const { wrapper } = mountForm(submit)
    await fill(wrapper, 'name', 'Ada')
    await fill(wrapper, 'username', 'ada')
    await fill(wrapper, 'email', 'ada@example.com')
    await fill(wrapper, 'password', 'long enough')
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    expect(wrapper.get('[data-testid="field-email"]').attributes('data-invalid')).toBe('true')
    expect(wrapper.get('[data-testid="field-email"]').text()).toContain('Email has already been taken')
    expect(wrapper.find('[data-testid="form-error"]').exists()).toBe(false)
  })

  it('offline: the form stays readable, says why, and cannot be sent', async () => {
    const { wrapper, submit } = mountForm(undefined, { blocked: 'Offline: changes here need the server.' })
    expect(wrapper.get('[data-testid="form-blocked"]').text()).toBe('Offline: changes here need the server.')
    expect(wrapper.get('[data-testid="form-submit"]').attributes('disabled')).toBeDefined()
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    expect(submit).not.toHaveBeenCalled()
  })
})

describe('ResourceDetail web links', () => {
  const pipeline = {
    id: 61,
    iid: 3,
    status: 'success',
    ref: 'main',
    sha: 'abc123',
    web_url: 'http://127.0.0.1:4567/kestrel/app/-/pipelines/61',
  }
  const pipelineDetail = (version: unknown) =>
    setup({
      'api:get': (_account, path) => (path === '/version' ? page(version) : page(pipeline)),
      'accounts:list': { ok: true, result: [ROOT_ACCOUNT] },
    })

  /** A pipeline's page is its graph: its fields are under Details, folded. */
  async function openDetails(wrapper: ReturnType<typeof mount>): Promise<void> {
    expect(wrapper.text()).not.toContain('abc123')
    await wrapper.get('.resource-detail__raw .n-collapse-item__header-main').trigger('click')
    await flushPromises()
  }

  it("leaves out the web page of an item on Burrow Server, which has none (the panel is the item's page)", async () => {
    const { global } = pipelineDetail({ version: '17.6.0', revision: 'burrow' })
    const wrapper = mount(ResourceDetail, {
      props: { description: projectPipelines, context, viewer: ADMIN, itemKey: '61' },
      global,
    })
    await flushPromises()
    await openDetails(wrapper)
    expect(wrapper.text()).toContain('abc123')
    expect(wrapper.find('a[href*="/-/pipelines/61"]').exists()).toBe(false)
  })

  it('links the web page on a GitLab instance', async () => {
    const { global } = pipelineDetail({ version: '17.6.0', revision: '3c2e1a' })
    const wrapper = mount(ResourceDetail, {
      props: { description: projectPipelines, context, viewer: ADMIN, itemKey: '61' },
      global,
    })
    await flushPromises()
    await openDetails(wrapper)
    expect(wrapper.find('a[href*="/-/pipelines/61"]').exists()).toBe(true)
  })
})

describe('ResourceDetail of an item only its list answers (a group badge in its project)', () => {
  const own = { id: 4, name: 'Coverage', kind: 'project', link_url: 'https://ci/%{project_path}' }
  const inherited = { id: 9, name: 'Chat', kind: 'group', link_url: 'https://chat/%{group_name}' }
  const OWNER = { admin: false, level: 50 }
  const badgesServer = () =>
    setup({
      'api:get': (_account, path) => {
        if (path === '/projects/12/badges') return page([own, inherited])
        if (path === '/projects/12/badges/4') return page(own)
        // GitLab's project badge endpoint answers only the project's own badges.
        return { ok: false, error: { code: 'not-found', message: '404 Badge Not Found' } }
      },
    })

  it('shows the group badge from the list, read-only, saying whose it is', async () => {
    const { global } = badgesServer()
    const wrapper = mount(ResourceDetail, {
      props: { description: projectBadges, context, viewer: OWNER, itemKey: '9' },
      global,
    })
    await flushPromises()
    expect(wrapper.get('[data-testid="resource-detail-title"]').text()).toBe('Chat')
    expect(wrapper.text()).toContain('https://chat/%{group_name}')
    expect(wrapper.get('[data-testid="resource-list-only"]').text()).toContain('belongs to a group of the project')
    expect(wrapper.find('[data-testid="resource-edit"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="action-delete"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="resource-error"]').exists()).toBe(false)
  })

  it("keeps Edit and Delete on the project's own badge, and a key the list lacks stays not found", async () => {
    const { global } = badgesServer()
    const ownDetail = mount(ResourceDetail, {
      props: { description: projectBadges, context, viewer: OWNER, itemKey: '4' },
      global,
    })
    await flushPromises()
    expect(ownDetail.find('[data-testid="resource-list-only"]').exists()).toBe(false)
    expect(ownDetail.find('[data-testid="resource-edit"]').exists()).toBe(true)
    expect(ownDetail.find('[data-testid="action-delete"]').exists()).toBe(true)
    const gone = mount(ResourceDetail, {
      props: { description: projectBadges, context, viewer: OWNER, itemKey: '77' },
      global,
    })
    await flushPromises()
    expect(gone.find('[data-testid="resource-error"]').exists()).toBe(true)
  })
})

describe('Group CI/CD variables: the same key in two environment scopes', () => {
  const OWNER = { admin: false, level: 50 }
  const groupContext = { ...context, projectId: null, groupId: 3 }
  const staging = {
    key: 'DEPLOY_TOKEN',
    value: 'stored-secret-value',
    masked: true,
    protected: false,
    raw: false,
    variable_type: 'env_var',
    environment_scope: 'staging',
    description: null,
  }
  const mountActions = () => {
    const { transport, global } = setup({ 'api:send': { ok: true, result: { status: 200, body: staging } } })
    const wrapper = mount(ResourceActions, {
      props: {
        actions: groupVariables.actions ?? [],
        description: groupVariables,
        item: staging,
        context: groupContext,
        viewer: OWNER,
      },
      global,
      attachTo: document.body,
    })
    return { transport, wrapper }
  }

  it('Edit starts from the settings, never shows the stored value, and names the scope it changes', async () => {
    const { transport, wrapper } = mountActions()
    await wrapper.get('[data-testid="action-edit"]').trigger('click')
    await flushPromises()
    expect(document.body.textContent).toContain('DEPLOY_TOKEN, environments staging.')
    const inputs = [...document.querySelectorAll<HTMLInputElement>('[data-testid="resource-form"] input')]
    expect(inputs.map((i) => i.value)).not.toContain('stored-secret-value')
    expect(document.querySelector<HTMLInputElement>('[data-testid="field-environment_scope"] input')?.value).toBe(
      'staging',
    )
    const scope = document.querySelector<HTMLInputElement>('[data-testid="field-environment_scope"] input')
    if (scope === null) throw new Error('no scope field')
    scope.value = 'production'
    scope.dispatchEvent(new Event('input'))
    await flushPromises()
    document.querySelector<HTMLButtonElement>('[data-testid="form-submit"]')?.click()
    await flushPromises()
    // Only what changed, the value kept (left empty), and which of the key's variables.
    expect(sends(transport.calls)).toEqual([
      {
        method: 'PUT',
        path: '/groups/3/variables/DEPLOY_TOKEN',
        body: { filter: { environment_scope: 'staging' }, environment_scope: 'production' },
        invalidates: ['/groups/3/variables'],
      },
    ])
  })

  it("Delete passes GitLab's filter[environment_scope]", async () => {
    const { transport, wrapper } = mountActions()
    await wrapper.get('[data-testid="action-delete"]').trigger('click')
    await flushPromises()
    expect(document.body.textContent).toContain('Delete the variable DEPLOY_TOKEN (environments staging)?')
    ;[...document.querySelectorAll<HTMLButtonElement>('.n-dialog__action button')]
      .find((b) => b.textContent?.trim() === 'Delete')
      ?.click()
    await flushPromises()
    expect(sends(transport.calls)).toEqual([
      {
        method: 'DELETE',
        path: '/groups/3/variables/DEPLOY_TOKEN',
        query: { 'filter[environment_scope]': 'staging' },
        invalidates: ['/groups/3/variables'],
      },
    ])
  })
})
