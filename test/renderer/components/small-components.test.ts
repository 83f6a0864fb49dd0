// @vitest-environment jsdom
import { mount } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import CommonErrorAlert from '../../../src/renderer/components/common/CommonErrorAlert.vue'
import CommonRelativeTime from '../../../src/renderer/components/common/CommonRelativeTime.vue'
import LabelChip from '../../../src/renderer/components/label/LabelChip.vue'
import UserAvatar from '../../../src/renderer/components/user/UserAvatar.vue'
import { toReadableError } from '../../../src/renderer/lib/ipc-errors'
import { IpcFailure } from '../../../src/shared/ipc/contract'

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
    const wrapper = mount(UserAvatar, { props: { name: 'Ada Byron Lovelace', username: 'ada', avatarUrl: 'https://secure.gravatar.com/avatar/x' } })
    expect(wrapper.find('img').exists()).toBe(false)
    expect(wrapper.text()).toBe('AL')
    expect(wrapper.attributes('aria-label')).toBe('Ada Byron Lovelace')
  })

  it('shows an inline image avatar', () => {
    const wrapper = mount(UserAvatar, { props: { name: 'Root', avatarUrl: 'data:image/png;base64,iVBORw0KGgo=' } })
    expect(wrapper.find('img').attributes('src')).toBe('data:image/png;base64,iVBORw0KGgo=')
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
    const error = toReadableError(new IpcFailure({ code: 'keychain-unavailable', message: 'Cannot save the sign-in: no Secret Service.' }))
    const wrapper = mount(CommonErrorAlert, { props: { error } })
    expect(wrapper.text()).toContain('No keychain available')
    expect(wrapper.text()).toContain('Cannot save the sign-in: no Secret Service.')
    expect(wrapper.text()).toContain('GNOME Keyring')
    expect(wrapper.find('code').text()).toBe('keychain-unavailable')
  })

  it('offers a retry button when asked to', async () => {
    const wrapper = mount(CommonErrorAlert, { props: { error: toReadableError(new Error('x')), retryLabel: 'Try again' } })
    await wrapper.find('button').trigger('click')
    expect(wrapper.emitted('retry')).toHaveLength(1)
  })
})
