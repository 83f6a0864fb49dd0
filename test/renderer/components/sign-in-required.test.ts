// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createTestingPinia } from '@pinia/testing'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Component } from 'vue'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import AccountAddForm from '../../../src/renderer/components/account/AccountAddForm.vue'
import ShellStatus from '../../../src/renderer/components/shell/ShellStatus.vue'
import AccountsView from '../../../src/renderer/views/AccountsView.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import type { SyncStatus } from '../../../src/shared/ipc/cache'
import type { Account } from '../../../src/shared/ipc/contract'
import { fakeTransport, LOCAL_INFO, LOCAL_STATUS, ROOT_ACCOUNT } from '../support/fake-bridge'

/*
 * An account whose saved sign-in the server refused (core's `signInRequired`): the status bar
 * names it and leads to Accounts, which says why and offers "Sign in again…" into the add form
 * with its instance filled in; the state goes once core reports the account signed in.
 */

enableAutoUnmount(afterEach)

const REASON = 'gitlab.example.com refused the saved sign-in (401): the token may have been revoked or have expired.'
const ADA: Account = {
  ...ROOT_ACCOUNT,
  id: 'acc-ada',
  baseUrl: 'https://gitlab.example.com',
  username: 'ada',
  name: 'Ada Lovelace',
  userId: 2,
  signInRequired: { reason: REASON, since: '2026-11-26T19:00:00.000Z' },
}

const failedSync: SyncStatus = {
  accountId: ADA.id,
  state: 'idle',
  scope: { mode: 'memberships' },
  progress: null,
  lastStartedAt: '2026-11-26T19:00:00Z',
  lastCompletedAt: null,
  lastReconciledAt: null,
  lastError: REASON,
}

function mountWith(component: Component, props: Record<string, unknown> = {}) {
  const transport = fakeTransport({
    'app:info': LOCAL_INFO,
    'server:status': LOCAL_STATUS,
    'accounts:secret-storage': {
      ok: true,
      result: { kind: 'keychain', available: true, reason: null, encryptedFile: { exists: false, unlocked: false } },
    },
    'sync:status': { ok: true, result: failedSync },
    'outbox:list': { ok: true, result: [] },
  })
  const pinia = createTestingPinia({
    createSpy: vi.fn,
    stubActions: false,
    initialState: {
      accounts: { accounts: [ROOT_ACCOUNT, ADA], loaded: true },
      sync: { statuses: { [ADA.id]: failedSync } },
      outbox: { entries: [], loaded: true },
    },
  })
  const router: Router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'home', component: { template: '<div />' } },
      { path: '/accounts', name: 'accounts', component: { template: '<div />' } },
      { path: '/accounts/add', name: 'account-add', component: { template: '<div />' } },
      { path: '/accounts/:account/sync', name: 'account-sync', component: { template: '<div />' } },
      { path: '/:rest(.*)*', component: { template: '<div />' } },
    ],
  })
  const wrapper = mount(component, {
    props,
    global: { plugins: [pinia, router], provide: { [bridgeKey as symbol]: transport.bridge } },
    attachTo: document.body,
  })
  return { wrapper, transport, router }
}

describe('an account to sign in again', () => {
  it('is named in the status bar with its reason, leading to Accounts, instead of "Sync failed"', async () => {
    const { wrapper, router } = mountWith(ShellStatus)
    await flushPromises()
    const item = wrapper.get('[data-testid="status-sign-in"]')
    expect(item.text()).toBe('Sign in again: @ada on gitlab.example.com')
    expect(item.attributes('title')).toBe(`@ada: ${REASON}`)
    expect(wrapper.find('[data-testid="status-sync"]').exists()).toBe(false)
    await item.trigger('click')
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('accounts')
  })

  it('shows in Accounts with the reason and a way to sign in again, and goes once core reports it signed in', async () => {
    const { wrapper, transport, router } = mountWith(AccountsView)
    await flushPromises()
    const ada = wrapper.get('[data-account="ada"]')
    expect(ada.get('[data-testid="account-sign-in-required"]').text()).toBe('Sign in again')
    expect(ada.get('[data-testid="account-sign-in-reason"]').text()).toContain(REASON)
    expect(wrapper.get('[data-account="root"]').find('[data-testid="account-sign-in-required"]').exists()).toBe(false)

    await ada.get('[data-testid="account-sign-in-again"]').trigger('click')
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('account-add')
    expect(router.currentRoute.value.query).toEqual({ baseUrl: 'https://gitlab.example.com' })

    const { signInRequired: _cleared, ...signedIn } = ADA
    transport.emit('accounts:did-change', [ROOT_ACCOUNT, signedIn])
    await flushPromises()
    expect(wrapper.find('[data-testid="account-sign-in-required"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="account-sign-in-again"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="account-sign-in-reason"]').exists()).toBe(false)
  })

  it('opens the add form on its instance', async () => {
    mountWith(AccountAddForm, { instanceUrl: 'https://gitlab.example.com' })
    await flushPromises()
    const input = document.querySelector<HTMLInputElement>('[data-testid="instance-url"] input')
    expect(input?.value).toBe('https://gitlab.example.com')
  })
})
