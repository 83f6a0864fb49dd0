// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import CommonErrorAlert from '../../../src/renderer/components/common/CommonErrorAlert.vue'
import CommonRelativeTime from '../../../src/renderer/components/common/CommonRelativeTime.vue'
import LabelChip from '../../../src/renderer/components/label/LabelChip.vue'
import UserAvatar from '../../../src/renderer/components/user/UserAvatar.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import { toReadableError } from '../../../src/renderer/lib/ipc-errors'
import { IpcFailure } from '../../../src/shared/ipc/contract'
import { fakeTransport } from '../support/fake-bridge'

describe('LabelChip', () => {
  it('uses the label colour as background and a readable text colour', () => {
    const chip = mount(LabelChip, { props: { name: 'bug', color: '#FFEEAA' } }).find('.label-chip')
    expect(chip.attributes('style')).toContain('--label-bg: #ffeeaa')
    expect(chip.attributes('style')).toContain('--label-fg: #1f1e24')
    expect(chip.text()).toBe('bug')
  })

  it('shows a scoped label as scope and value', () => {
    const wrapper = mount(LabelChip, { props: { name: 'priority::high', color: '#cc0000' } })
    expect(wrapper.find('.label-chip__scope').text()).toBe('priority')
    expect(wrapper.find('.label-chip__value').text()).toBe('high')
  })

  it('emits remove with its name when removable', async () => {
    const wrapper = mount(LabelChip, { props: { name: 'ui', color: '#000', removable: true } })
    await wrapper.find('button').trigger('click')
    expect(wrapper.emitted('remove')).toEqual([['ui']])
  })
})

describe('UserAvatar', () => {
  it('shows initials of the first and last name, never loading a remote avatar', () => {
    const wrapper = mount(UserAvatar, {
      props: { name: 'Ada Byron Lovelace', username: 'ada', avatarUrl: 'https://secure.gravatar.com/avatar/x' },
    })
    expect(wrapper.find('img').exists()).toBe(false)
    expect(wrapper.text()).toBe('AL')
    expect(wrapper.attributes('aria-label')).toBe('Ada Byron Lovelace')
  })

  it('shows an inline image avatar', () => {
    const wrapper = mount(UserAvatar, { props: { name: 'Root', avatarUrl: 'data:image/png;base64,iVBORw0KGgo=' } })
    expect(wrapper.find('img').attributes('src')).toBe('data:image/png;base64,iVBORw0KGgo=')
  })

  it("shows the avatar core fetched from the account's instance, asking once per account and URL", async () => {
    const png = 'data:image/png;base64,iVBORw0KGgo='
    const transport = fakeTransport({ 'avatars:get': { ok: true, result: png } })
    const props = {
      name: 'Ada Lovelace',
      username: 'ada',
      avatarUrl: 'http://127.0.0.1:4567/uploads/-/system/user/avatar/2/ada.png',
      accountId: 'local',
    }
    const first = mount(UserAvatar, { props, global: { provide: { [bridgeKey as symbol]: transport.bridge } } })
    const second = mount(UserAvatar, { props, global: { provide: { [bridgeKey as symbol]: transport.bridge } } })
    expect(first.text()).toBe('AL')
    await flushPromises()
    expect(first.find('img').attributes('src')).toBe(png)
    expect(second.find('img').attributes('src')).toBe(png)
    expect(transport.calls).toEqual([{ channel: 'avatars:get', args: [{ accountId: 'local', url: props.avatarUrl }] }])
  })

  it('keeps the initials when core has no image or refuses the URL', async () => {
    const transport = fakeTransport({
      'avatars:get': (request) =>
        (request as { url: string }).url.includes('gravatar')
          ? { ok: false, error: { code: 'foreign-url', message: 'not this instance' } }
          : { ok: true, result: null },
    })
    const provide = { [bridgeKey as symbol]: transport.bridge }
    const missing = mount(UserAvatar, {
      props: { name: 'Grace Hopper', avatarUrl: 'http://127.0.0.1:4567/uploads/none.png', accountId: 'local' },
      global: { provide },
    })
    const foreign = mount(UserAvatar, {
      props: { name: 'Grace Hopper', avatarUrl: 'https://secure.gravatar.com/avatar/x', accountId: 'local' },
      global: { provide },
    })
    await flushPromises()
    expect(missing.find('img').exists()).toBe(false)
    expect(foreign.find('img').exists()).toBe(false)
    expect(foreign.text()).toBe('GH')
  })

  it('gives the same person the same colour', () => {
    const a = mount(UserAvatar, { props: { name: 'A', username: 'alice' } }).attributes('style')
    const b = mount(UserAvatar, { props: { name: 'Alice Again', username: 'alice' } }).attributes('style')
    expect(a?.match(/--avatar-hue: \d+/)?.[0]).toBe(b?.match(/--avatar-hue: \d+/)?.[0])
  })
})

describe('CommonRelativeTime', () => {
  afterEach(() => vi.useRealTimers())

  it('shows the relative time with the machine-readable and absolute date', () => {
    vi.useFakeTimers({ now: new Date('2024-03-10T12:00:00Z') })
    const time = mount(CommonRelativeTime, { props: { datetime: '2024-03-10T09:00:00Z' } }).find('time')
    expect(time.text()).toBe('3 hours ago')
    expect(time.attributes('datetime')).toBe('2024-03-10T09:00:00Z')
    expect(time.attributes('title')).toBeTruthy()
  })
})

describe('CommonErrorAlert', () => {
  it('shows title, message, hint and code of an IpcFailure', () => {
    const error = toReadableError(
      new IpcFailure({ code: 'keychain-unavailable', message: 'Cannot save the sign-in: no Secret Service.' }),
    )
    const wrapper = mount(CommonErrorAlert, { props: { error } })
    expect(wrapper.text()).toContain('No keychain available')
    expect(wrapper.text()).toContain('Cannot save the sign-in: no Secret Service.')
    expect(wrapper.text()).toContain('GNOME Keyring')
    expect(wrapper.find('code').text()).toBe('keychain-unavailable')
  })

  it('offers a retry button when asked to', async () => {
    const wrapper = mount(CommonErrorAlert, {
      props: { error: toReadableError(new Error('x')), retryLabel: 'Try again' },
    })
    await wrapper.find('button').trigger('click')
    expect(wrapper.emitted('retry')).toHaveLength(1)
  })
})
