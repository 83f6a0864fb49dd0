// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import AccountAddForm from '../../../src/renderer/components/account/AccountAddForm.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import {
  fakeTransport,
  LOCAL_INFO,
  LOCAL_INFO_SIGNED_IN,
  LOCAL_STATUS,
  ROOT_ACCOUNT,
  type FakeTransport,
} from '../support/fake-bridge'

function mountForm(transport: FakeTransport) {
  return mount(AccountAddForm, {
    global: { plugins: [createPinia()], provide: { [bridgeKey as symbol]: transport.bridge } },
    attachTo: document.body,
  })
}

const input = (wrapper: ReturnType<typeof mountForm>, testId: string) => wrapper.find(`[data-testid="${testId}"] input`)

beforeEach(() => {
  document.body.innerHTML = ''
  localStorage.clear()
})

describe('AccountAddForm', () => {
  it('offers the local Burrow Server first and adds it with a token', async () => {
    const transport = fakeTransport({
      'app:info': LOCAL_INFO,
      'server:status': LOCAL_STATUS,
      'accounts:add': { ok: true, result: ROOT_ACCOUNT },
    })
    const wrapper = mountForm(transport)
    await flushPromises()
    expect(wrapper.find('[data-testid="instance-local"]').attributes('aria-checked')).toBe('true')
    expect(wrapper.find('[data-testid="instance-local"]').text()).toContain('http://127.0.0.1:4567 · version 17.6.0')
    await input(wrapper, 'token').setValue('  glpat-secret ')
    await wrapper.find('form').trigger('submit')
    await flushPromises()
    expect(transport.calls.find((c) => c.channel === 'accounts:add')?.args).toEqual([
      { baseUrl: 'http://127.0.0.1:4567', token: 'glpat-secret' },
    ])
    expect(wrapper.emitted('added')).toEqual([[ROOT_ACCOUNT]])
  })

  it('adds the local Burrow Server without a token when the launch holds its credential', async () => {
    const local = { ...ROOT_ACCOUNT, id: 'local', kind: 'local' }
    const transport = fakeTransport({
      'app:info': LOCAL_INFO_SIGNED_IN,
      'server:status': LOCAL_STATUS,
      'accounts:add-local': { ok: true, result: local },
    })
    const wrapper = mountForm(transport)
    await flushPromises()
    expect(wrapper.find('[data-testid="local-sign-in"]').text()).toContain('Nothing to type')
    expect(wrapper.find('[data-testid="token"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="account-add-submit"]').attributes('disabled')).toBeUndefined()
    await wrapper.find('form').trigger('submit')
    await flushPromises()
    expect(transport.calls.filter((c) => c.channel.startsWith('accounts:add'))).toEqual([
      { channel: 'accounts:add-local', args: [] },
    ])
    expect(wrapper.emitted('added')).toEqual([[local]])
    // Another instance still asks for its sign-in.
    await wrapper.find('[data-testid="instance-other"]').trigger('click')
    expect(wrapper.find('[data-testid="token"]').exists()).toBe(true)
  })

  it('shows a readable error when no keychain can store the token', async () => {
    const transport = fakeTransport({
      'app:info': LOCAL_INFO,
      'server:status': LOCAL_STATUS,
      'accounts:add': {
        ok: false,
        error: {
          code: 'keychain-unavailable',
          message: 'Cannot save the sign-in: no Secret Service on the session bus.',
        },
      },
    })
    const wrapper = mountForm(transport)
    await flushPromises()
    await input(wrapper, 'token').setValue('glpat-secret')
    await wrapper.find('form').trigger('submit')
    await flushPromises()
    const error = wrapper.find('[data-testid="account-add-error"]')
    expect(error.text()).toContain('No keychain available')
    expect(error.text()).toContain('no Secret Service on the session bus')
    expect(wrapper.emitted('added')).toBeUndefined()
  })

  it('signs in to another instance with username and password, with its CA file', async () => {
    const transport = fakeTransport({
      'app:info': { ok: true, result: { version: '0.1.0', mode: 'electron', serverUrl: null } },
      'accounts:add': { ok: true, result: ROOT_ACCOUNT },
    })
    const wrapper = mountForm(transport)
    await flushPromises()
    expect(wrapper.find('[data-testid="instance-local"]').exists()).toBe(false)
    await input(wrapper, 'instance-url').setValue('https://gitlab.example.com/')
    await wrapper.find('[data-testid="method-password"] input').setValue(true)
    await input(wrapper, 'username').setValue('ada')
    await input(wrapper, 'password').setValue('pw')
    await wrapper.find('.n-collapse-item__header-main').trigger('click')
    await flushPromises()
    await input(wrapper, 'ca-file').setValue('/etc/ssl/company.pem')
    await wrapper.find('form').trigger('submit')
    await flushPromises()
    expect(transport.calls.find((c) => c.channel === 'accounts:add')?.args).toEqual([
      { baseUrl: 'https://gitlab.example.com', username: 'ada', password: 'pw', caFile: '/etc/ssl/company.pem' },
    ])
  })

  it('refuses an address that is not a web address before asking core', async () => {
    const transport = fakeTransport({ 'app:info': LOCAL_INFO, 'server:status': LOCAL_STATUS })
    const wrapper = mountForm(transport)
    await flushPromises()
    await wrapper.find('[data-testid="instance-other"]').trigger('click')
    await input(wrapper, 'instance-url').setValue('gitlab dot com')
    await input(wrapper, 'token').setValue('glpat-secret')
    expect(wrapper.text()).toContain('That is not a web address')
    expect(wrapper.find('[data-testid="account-add-submit"]').attributes('disabled')).toBeDefined()
    await wrapper.find('form').trigger('submit')
    await flushPromises()
    expect(transport.calls.some((c) => c.channel === 'accounts:add')).toBe(false)
  })
})
