// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { createTestingPinia } from '@pinia/testing'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Component } from 'vue'
import { createMemoryHistory, createRouter } from 'vue-router'
import { NModal } from 'naive-ui'
import AccountAddForm from '../../../src/renderer/components/account/AccountAddForm.vue'
import AccountLockedBanner from '../../../src/renderer/components/account/AccountLockedBanner.vue'
import AccountUnlockDialog from '../../../src/renderer/components/account/AccountUnlockDialog.vue'
import ShellAccountSwitcher from '../../../src/renderer/components/shell/ShellAccountSwitcher.vue'
import ShellStatus from '../../../src/renderer/components/shell/ShellStatus.vue'
import AccountsView from '../../../src/renderer/views/AccountsView.vue'
import OutboxView from '../../../src/renderer/views/outbox/OutboxView.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import { useCommandsStore } from '../../../src/renderer/stores/commands'
import type { Account, IpcResponse } from '../../../src/shared/ipc/contract'
import type { OutboxEntry } from '../../../src/shared/ipc/outbox'
import type { SecretStorageStatus } from '../../../src/shared/ipc/secrets'
import { fakeTransport, LOCAL_INFO, LOCAL_STATUS, ROOT_ACCOUNT } from '../support/fake-bridge'

/*
 * Where sign-ins are saved, as the renderer shows it: the account form's way into the encrypted
 * file when no keychain works, the unlock prompt of a launch whose file is locked, the Accounts
 * view's storage card, and locked accounts in the switcher, status bar and outbox. Core is a
 * fake here (fakeSecretCore): a table of answers that follows the storage's state.
 */

const PASSPHRASE = 'kestrel field notes lantern'
const NO_KEYCHAIN_REASON = 'The OS keychain is not usable: no Secret Service on the session bus.'
const ADA: Account = { ...ROOT_ACCOUNT, id: 'acc-ada', username: 'ada', name: 'Ada Lovelace', userId: 2 }
const LOCAL: Account = { ...ROOT_ACCOUNT, id: 'local', kind: 'local', username: 'root', name: 'Administrator' }

const keychainOk: SecretStorageStatus = {
  kind: 'keychain',
  available: true,
  reason: null,
  encryptedFile: { exists: false, unlocked: false },
}
const keychainMissing: SecretStorageStatus = {
  kind: 'keychain',
  available: false,
  reason: NO_KEYCHAIN_REASON,
  encryptedFile: { exists: false, unlocked: false },
}
const fileUnlocked: SecretStorageStatus = {
  kind: 'encrypted-file',
  available: true,
  reason: null,
  encryptedFile: { exists: true, unlocked: true },
}
const fileLocked: SecretStorageStatus = {
  kind: 'encrypted-file',
  available: false,
  reason: 'Sign-ins on this device are saved in an encrypted file: enter its passphrase to unlock it.',
  encryptedFile: { exists: true, unlocked: false },
}

const fail = (code: string, message: string): IpcResponse => ({ ok: false, error: { code, message } })

/**
 * A fake of core's secret storage behind the bridge (no keychain can be reached from jsdom):
 * `accounts:add` refuses with `keychain-unavailable` until the file is open, the passphrase is
 * checked against PASSPHRASE once the file exists, as core does.
 */
function fakeSecretCore(
  initial: SecretStorageStatus,
  extra: Record<string, IpcResponse | ((...args: readonly unknown[]) => IpcResponse)> = {},
) {
  let status = initial
  const transport = fakeTransport({
    'app:info': LOCAL_INFO,
    'server:status': LOCAL_STATUS,
    'accounts:secret-storage': () => ({ ok: true, result: status }),
    'accounts:use-encrypted-file': (passphrase) => {
      if (status.encryptedFile.exists && passphrase !== PASSPHRASE)
        return fail('wrong-passphrase', 'This passphrase does not open the encrypted sign-in file of this device.')
      status = fileUnlocked
      return { ok: true, result: status }
    },
    'accounts:add': () =>
      status.available
        ? { ok: true, result: ADA }
        : fail(
            'keychain-unavailable',
            `Cannot save the sign-in: ${status.reason} Enable a keychain or choose the encrypted-file store with a passphrase.`,
          ),
    'sync:start': (accountId) => ({
      ok: true,
      result: {
        accountId,
        state: 'running',
        scope: { mode: 'memberships' },
        progress: null,
        lastStartedAt: null,
        lastCompletedAt: null,
        lastReconciledAt: null,
        lastError: null,
      },
    }),
    'outbox:retry': (id) => ({ ok: true, result: { id } }),
    ...extra,
  })
  return { transport, status: () => status }
}

function mountWith(
  component: Component,
  transport: ReturnType<typeof fakeSecretCore>['transport'],
  initialState: Record<string, unknown> = {},
  options: { router?: boolean } = {},
) {
  const pinia = createTestingPinia({ createSpy: vi.fn, stubActions: false, initialState })
  const plugins: unknown[] = [pinia]
  if (options.router) {
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/', name: 'home', component: { template: '<div />' } },
        { path: '/accounts', name: 'accounts', component: { template: '<div />' } },
        { path: '/accounts/add', name: 'account-add', component: { template: '<div />' } },
        { path: '/accounts/:account/sync', name: 'account-sync', component: { template: '<div />' } },
        { path: '/outbox', name: 'outbox', component: { template: '<div />' } },
        { path: '/:rest(.*)*', component: { template: '<div />' } },
      ],
    })
    plugins.push(router)
  }
  return mount(component, {
    global: { plugins: plugins as never[], provide: { [bridgeKey as symbol]: transport.bridge } },
    attachTo: document.body,
  })
}

const inputOf = (testId: string): HTMLInputElement => {
  const input = document.querySelector<HTMLInputElement>(`[data-testid="${testId}"] input`)
  if (input === null) throw new Error(`no input in [data-testid="${testId}"]`)
  return input
}
async function type(testId: string, value: string): Promise<void> {
  const input = inputOf(testId)
  input.value = value
  input.dispatchEvent(new Event('input'))
  await flushPromises()
}
const byTestId = (testId: string): HTMLElement | null =>
  document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)
async function click(testId: string): Promise<void> {
  const element = byTestId(testId)
  if (element === null) throw new Error(`no [data-testid="${testId}"]`)
  element.click()
  await flushPromises()
}
async function submitAdd(): Promise<void> {
  const form = byTestId('account-add-submit')?.closest('form')
  if (!form) throw new Error('no account form')
  form.dispatchEvent(new Event('submit', { cancelable: true }))
  await flushPromises()
}
async function submitPassphrase(): Promise<void> {
  const form = byTestId('passphrase')?.closest('form')
  if (!form) throw new Error('no passphrase form')
  form.dispatchEvent(new Event('submit', { cancelable: true }))
  await flushPromises()
}
const calls = (transport: ReturnType<typeof fakeSecretCore>['transport'], channel: string) =>
  transport.calls.filter((c) => c.channel === channel).map((c) => c.args)

beforeEach(() => {
  localStorage.clear()
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
  )
})
afterEach(() => {
  vi.restoreAllMocks()
  document.body.innerHTML = ''
})

describe('adding an account where no keychain works', () => {
  it('explains that nothing was stored, and offers the encrypted file instead of a bare error', async () => {
    const { transport } = fakeSecretCore(keychainMissing)
    mountWith(AccountAddForm, transport)
    await flushPromises()
    await type('token', 'glpat-secret')
    await submitAdd()
    const panel = byTestId('keychain-missing')
    expect(panel?.textContent).toContain('No keychain to keep this sign-in')
    expect(panel?.textContent).toContain('the Secret Service (GNOME Keyring or KWallet)')
    expect(panel?.textContent).toContain('Nothing was stored.')
    expect(byTestId('keychain-reason')?.textContent).toBe(NO_KEYCHAIN_REASON)
    expect(byTestId('use-encrypted-file')?.textContent).toContain(
      'Save sign-ins in an encrypted file protected by a passphrase',
    )
    // The offer replaces the generic error and the Add button until the user answers it.
    expect(byTestId('account-add-error')).toBeNull()
    expect(byTestId('account-add-submit')).toBeNull()
    expect(calls(transport, 'accounts:use-encrypted-file')).toEqual([])
  })

  it('after the opt-in with a confirmed passphrase, creates the file and adds the account without a second click', async () => {
    const { transport } = fakeSecretCore(keychainMissing)
    const wrapper = mountWith(AccountAddForm, transport)
    await flushPromises()
    await type('token', 'glpat-secret')
    await submitAdd()
    await click('use-encrypted-file')
    expect(byTestId('passphrase-warning')?.textContent).toContain('cannot recover a forgotten passphrase')
    expect(byTestId('passphrase-warning')?.textContent).toContain('sign in to each account again')
    await type('passphrase', PASSPHRASE)
    await type('passphrase-confirm', PASSPHRASE)
    expect(byTestId('passphrase-strength')?.getAttribute('data-level')).toBe('strong')
    await submitPassphrase()
    expect(calls(transport, 'accounts:use-encrypted-file')).toEqual([[PASSPHRASE]])
    expect(calls(transport, 'accounts:add')).toEqual([
      [{ baseUrl: 'http://127.0.0.1:4567', token: 'glpat-secret' }],
      [{ baseUrl: 'http://127.0.0.1:4567', token: 'glpat-secret' }],
    ])
    expect(wrapper.emitted('added')).toEqual([[ADA]])
    expect(byTestId('keychain-missing')).toBeNull()
  })

  it('keeps the passphrase button disabled while the confirmation differs, and sends nothing', async () => {
    const { transport } = fakeSecretCore(keychainMissing)
    mountWith(AccountAddForm, transport)
    await flushPromises()
    await type('token', 'glpat-secret')
    await submitAdd()
    await click('use-encrypted-file')
    await type('passphrase', PASSPHRASE)
    await type('passphrase-confirm', `${PASSPHRASE}!`)
    expect(document.body.textContent).toContain('The two passphrases differ.')
    expect(byTestId('passphrase-submit')?.hasAttribute('disabled')).toBe(true)
    await submitPassphrase()
    expect(calls(transport, 'accounts:use-encrypted-file')).toEqual([])
  })

  it('rates the passphrase as it is typed: too short, weak, fair, strong', async () => {
    const { transport } = fakeSecretCore(keychainMissing)
    mountWith(AccountAddForm, transport)
    await flushPromises()
    await type('token', 'glpat-secret')
    await submitAdd()
    await click('use-encrypted-file')
    const level = async (passphrase: string) => {
      await type('passphrase', passphrase)
      return [byTestId('passphrase-strength')?.getAttribute('data-level'), byTestId('passphrase-strength')?.textContent]
    }
    expect(await level('sunny')).toEqual(['too-short', expect.stringContaining('Use at least 8 characters (3 more)')])
    expect(await level('password1')).toEqual(['weak', expect.stringContaining('Easy to guess')])
    expect(await level('blue tiger lamp')).toEqual(['fair', expect.stringContaining('Another word')])
    expect(await level(PASSPHRASE)).toEqual(['strong', expect.stringContaining('Strong')])
  })

  it('asks for the passphrase of an existing locked file, says so when it is wrong, then adds the account', async () => {
    const { transport } = fakeSecretCore(fileLocked)
    const wrapper = mountWith(AccountAddForm, transport)
    await flushPromises()
    await type('token', 'glpat-secret')
    await submitAdd()
    expect(byTestId('sign-ins-locked')?.textContent).toContain('Your sign-ins are locked')
    expect(byTestId('passphrase-confirm')).toBeNull()
    await type('passphrase', 'not the passphrase')
    await submitPassphrase()
    expect(byTestId('passphrase-error')?.textContent).toContain('Wrong passphrase')
    expect(byTestId('passphrase-error')?.textContent).toContain('wrong-passphrase')
    expect(wrapper.emitted('added')).toBeUndefined()
    await type('passphrase', PASSPHRASE)
    await submitPassphrase()
    expect(calls(transport, 'accounts:use-encrypted-file')).toEqual([['not the passphrase'], [PASSPHRASE]])
    expect(wrapper.emitted('added')).toEqual([[ADA]])
  })

  it('says where the token will be kept: the keychain, or the encrypted file once chosen', async () => {
    const first = fakeSecretCore(keychainOk)
    mountWith(AccountAddForm, first.transport, { 'secret-storage': { status: keychainOk } })
    await flushPromises()
    expect(document.body.textContent).toContain('Burrow keeps it in your system keychain.')
    document.body.innerHTML = ''
    const second = fakeSecretCore(fileUnlocked)
    mountWith(AccountAddForm, second.transport, { 'secret-storage': { status: fileUnlocked } })
    await flushPromises()
    expect(document.body.textContent).toContain('Burrow keeps it in the encrypted sign-in file on this computer.')
  })
})

/** The outbox entry core lists for a queued comment. */
function queuedComment(id: number, accountId: string, reason: string | null): OutboxEntry {
  return {
    id,
    accountId,
    target: { type: 'issue', projectId: 5, iid: 12 },
    mutation: { kind: 'comment', body: 'Looks good' },
    state: 'queued',
    reason,
    status: null,
    attempts: reason === null ? 0 : 1,
    createdAt: '2024-05-01T10:00:00Z',
    updatedAt: '2024-05-01T10:00:00Z',
    nextAttemptAt: null,
    conflict: null,
    blockedBy: null,
    result: null,
  } as unknown as OutboxEntry
}

describe('a launch whose encrypted file is locked', () => {
  const lockedState = (extra: Record<string, unknown> = {}) => ({
    accounts: { accounts: [LOCAL, ADA], loaded: true },
    'secret-storage': { status: fileLocked },
    ...extra,
  })

  it('asks for the passphrase, naming the accounts that wait on it (not the local server’s)', async () => {
    const { transport } = fakeSecretCore(fileLocked)
    mountWith(AccountUnlockDialog, transport, lockedState())
    await flushPromises()
    const dialog = byTestId('unlock-dialog')
    expect(dialog?.textContent).toContain('Unlock your sign-ins')
    expect(dialog?.textContent).toContain('Ada Lovelace (@ada)')
    expect(dialog?.textContent).not.toContain('Administrator')
  })

  it('shows a wrong passphrase as a readable error and stays open', async () => {
    const { transport } = fakeSecretCore(fileLocked)
    const wrapper = mountWith(AccountUnlockDialog, transport, lockedState())
    await flushPromises()
    await type('passphrase', 'correct horse battery')
    await submitPassphrase()
    expect(byTestId('passphrase-error')?.textContent).toContain('Wrong passphrase')
    expect(byTestId('passphrase-error')?.textContent).toContain('Check Caps Lock')
    expect(wrapper.findComponent(NModal).props('show')).toBe(true)
  })

  it('on Skip closes and leaves a banner naming the locked accounts, whose Unlock… asks again', async () => {
    const { transport } = fakeSecretCore(fileLocked)
    const pinia = createTestingPinia({ createSpy: vi.fn, stubActions: false, initialState: lockedState() })
    const global = { plugins: [pinia], provide: { [bridgeKey as symbol]: transport.bridge } }
    const dialog = mount(AccountUnlockDialog, { global, attachTo: document.body })
    const banner = mount(AccountLockedBanner, { global, attachTo: document.body })
    await flushPromises()
    expect(banner.find('[data-testid="locked-banner"]').exists()).toBe(false)
    await click('passphrase-cancel')
    expect(dialog.findComponent(NModal).props('show')).toBe(false)
    expect(banner.get('[data-testid="locked-banner"]').text()).toContain(
      'Ada Lovelace: nothing syncs or is sent until the encrypted sign-in file is unlocked',
    )
    await banner.get('[data-testid="locked-banner-unlock"]').trigger('click')
    await flushPromises()
    expect(dialog.findComponent(NModal).props('show')).toBe(true)
    expect(banner.find('[data-testid="locked-banner"]').exists()).toBe(false)
    // Skipped again, the palette offers the way back too.
    await click('passphrase-cancel')
    const commands = useCommandsStore(pinia)
    expect(commands.commands.map((c) => c.id)).toContain('accounts.unlock')
    await commands.run('accounts.unlock')
    await flushPromises()
    expect(dialog.findComponent(NModal).props('show')).toBe(true)
    expect(calls(transport, 'accounts:use-encrypted-file')).toEqual([])
  })

  it('with the right passphrase closes, syncs the accounts that were locked and sends their queued writes now', async () => {
    const { transport } = fakeSecretCore(fileLocked)
    const entries = [queuedComment(7, ADA.id, fileLocked.reason), queuedComment(8, LOCAL.id, null)]
    const dialog = mountWith(AccountUnlockDialog, transport, lockedState({ outbox: { entries, loaded: true } }))
    await flushPromises()
    await type('passphrase', PASSPHRASE)
    await submitPassphrase()
    expect(dialog.findComponent(NModal).props('show')).toBe(false)
    expect(calls(transport, 'sync:start')).toEqual([[ADA.id]])
    expect(calls(transport, 'outbox:retry')).toEqual([[7]])
  })

  it('shows locked accounts in the switcher', async () => {
    const { transport } = fakeSecretCore(fileLocked)
    localStorage.setItem('burrow.selected-account', JSON.stringify(ADA.id))
    const wrapper = mountWith(ShellAccountSwitcher, transport, lockedState(), { router: true })
    await flushPromises()
    expect(wrapper.get('[data-testid="account-switcher"]').text()).toContain('Locked · @ada')
    await wrapper.get('[data-testid="account-switcher"]').trigger('click')
    await flushPromises()
    const options = [...document.querySelectorAll('.n-dropdown-option-body__label')].map((o) => o.textContent?.trim())
    expect(options).toContain('Ada Lovelace · 127.0.0.1:4567 · locked')
    expect(options).toContain('Administrator · 127.0.0.1:4567')
  })

  it('shows sync and the outbox of locked accounts as locked in the status bar, not as a failed sync', async () => {
    const { transport } = fakeSecretCore(fileLocked)
    const failedLocked = {
      accountId: ADA.id,
      state: 'idle',
      scope: { mode: 'memberships' },
      progress: null,
      lastStartedAt: '2024-05-01T10:00:00Z',
      lastCompletedAt: null,
      lastReconciledAt: null,
      lastError: fileLocked.reason,
    }
    const wrapper = mountWith(
      ShellStatus,
      transport,
      lockedState({
        accounts: { accounts: [ADA], loaded: true },
        sync: { statuses: { [ADA.id]: failedLocked } },
        outbox: { entries: [queuedComment(7, ADA.id, fileLocked.reason)], loaded: true },
      }),
      { router: true },
    )
    await flushPromises()
    expect(wrapper.get('[data-testid="status-locked"]').text()).toBe('Locked: 127.0.0.1:4567')
    expect(wrapper.find('[data-testid="status-sync"]').exists()).toBe(false)
    expect(wrapper.text()).not.toContain('Sync failed')
    expect(wrapper.get('[data-testid="status-outbox"]').text()).toBe('1 change waiting to be sent (1 locked)')
  })

  it('shows a locked account’s queued write in the outbox as locked, offering Unlock… instead of Send now', async () => {
    const { transport } = fakeSecretCore(fileLocked, {
      'outbox:list': {
        ok: true,
        result: [queuedComment(7, ADA.id, fileLocked.reason), queuedComment(8, LOCAL.id, null)],
      },
    })
    const wrapper = mountWith(OutboxView, transport, lockedState(), { router: true })
    await flushPromises()
    const [locked, local] = wrapper.findAll('[data-testid="outbox-entry"]')
    expect(locked.get('[data-testid="outbox-locked"]').text()).toBe('locked')
    expect(locked.text()).toContain('Waits until the encrypted sign-in file is unlocked')
    expect(locked.text()).not.toContain('Send now')
    expect(locked.text()).toContain('Unlock…')
    expect(local.find('[data-testid="outbox-locked"]').exists()).toBe(false)
    expect(local.text()).toContain('Send now')
  })
})

describe('the Accounts view', () => {
  const accountsState = (status: SecretStorageStatus) => ({
    accounts: { accounts: [LOCAL, ADA], loaded: true },
    'secret-storage': { status },
  })

  it('names the OS keychain sign-ins are saved in', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36',
    )
    const { transport } = fakeSecretCore(keychainOk)
    const wrapper = mountWith(AccountsView, transport, accountsState(keychainOk), { router: true })
    await flushPromises()
    const card = wrapper.get('[data-testid="secret-storage"]')
    expect(card.attributes('data-state')).toBe('keychain')
    expect(card.text()).toContain('Sign-ins are saved in the macOS Keychain')
    expect(wrapper.find('[data-testid="secret-storage-use-file"]').exists()).toBe(false)
  })

  it('without a keychain, says so and switches to the encrypted file', async () => {
    const { transport } = fakeSecretCore(keychainMissing)
    const wrapper = mountWith(AccountsView, transport, accountsState(keychainMissing), { router: true })
    await flushPromises()
    const card = wrapper.get('[data-testid="secret-storage"]')
    expect(card.text()).toContain('No keychain available')
    expect(card.text()).toContain(NO_KEYCHAIN_REASON)
    await wrapper.get('[data-testid="secret-storage-use-file"]').trigger('click')
    await type('passphrase', PASSPHRASE)
    await type('passphrase-confirm', PASSPHRASE)
    await submitPassphrase()
    expect(calls(transport, 'accounts:use-encrypted-file')).toEqual([[PASSPHRASE]])
    expect(wrapper.get('[data-testid="secret-storage"]').attributes('data-state')).toBe('file-unlocked')
    expect(wrapper.get('[data-testid="secret-storage"]').text()).toContain('Sign-ins are saved in an encrypted file')
  })

  it('with the file locked, marks the accounts that wait on it and unlocks in place', async () => {
    const { transport } = fakeSecretCore(fileLocked)
    const wrapper = mountWith(AccountsView, transport, accountsState(fileLocked), { router: true })
    await flushPromises()
    expect(wrapper.get('[data-testid="secret-storage"]').text()).toContain('one account cannot sync or send changes')
    const ada = wrapper.get('[data-account="ada"]')
    expect(ada.get('[data-testid="account-locked"]').text()).toBe('Locked')
    expect(ada.text()).not.toContain('Check sign-in')
    const local = wrapper.get('[data-account="root"]')
    expect(local.find('[data-testid="account-locked"]').exists()).toBe(false)
    expect(local.text()).toContain('Check sign-in')
    await wrapper.get('[data-testid="secret-storage-unlock"]').trigger('click')
    await type('passphrase', PASSPHRASE)
    await submitPassphrase()
    expect(wrapper.get('[data-testid="secret-storage"]').attributes('data-state')).toBe('file-unlocked')
    expect(wrapper.find('[data-testid="account-locked"]').exists()).toBe(false)
  })
})
