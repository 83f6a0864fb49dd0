// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount, RouterLinkStub } from '@vue/test-utils'
import { createTestingPinia } from '@pinia/testing'
import { afterEach, describe, expect, it, vi } from 'vitest'
import MergeRequestMergePanel from '../../../src/renderer/components/merge-request/MergeRequestMergePanel.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import type { MergeRequest } from '../../../src/renderer/lib/items'
import type { SyncStatus } from '../../../src/shared/ipc/cache'
import { fakeTransport, ROOT_ACCOUNT } from '../support/fake-bridge'

/*
 * The merge request's pipeline, approvals, merge and rebase: online actions straight to the
 * server (never kept for later), each off with its reason when it cannot run.
 */

enableAutoUnmount(afterEach)

const root = { id: 1, username: 'root', name: 'Administrator', avatar_url: null }
const jonas = { id: 7, username: 'jonas', name: 'Jonas Berg', avatar_url: null }
const base = {
  id: 900,
  iid: 4,
  project_id: 5,
  title: 'Faster parser',
  description: null,
  state: 'opened',
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-02T00:00:00Z',
  closed_at: null,
  author: jonas,
  assignees: [],
  reviewers: [],
  labels: [],
  milestone: null,
  user_notes_count: 0,
  web_url: '',
  source_branch: 'fast',
  target_branch: 'main',
  draft: false,
  has_conflicts: false,
  merge_status: 'can_be_merged',
  sha: 'abc123',
  head_pipeline: { id: 61, status: 'success' },
} as unknown as MergeRequest
/** The head pipeline's jobs: lint retried once, test failed but allowed to. */
const PIPELINE_JOBS = [
  { id: 101, name: 'lint', stage: 'build', status: 'failed' },
  { id: 102, name: 'compile', stage: 'build', status: 'success' },
  { id: 103, name: 'unit', stage: 'test', status: 'failed', allow_failure: true },
  { id: 104, name: 'lint', stage: 'build', status: 'success' },
]
const status = (state: SyncStatus['state']): SyncStatus => ({
  accountId: ROOT_ACCOUNT.id,
  state,
  scope: { mode: 'memberships' },
  progress: null,
  lastStartedAt: null,
  lastCompletedAt: null,
  lastReconciledAt: null,
  lastError: null,
})

function mountPanel(
  mr: Partial<MergeRequest> = {},
  options: { approvedBy?: (typeof root)[]; offline?: boolean; rebaseChecks?: boolean[] } = {},
) {
  let approvedBy = options.approvedBy ?? [jonas]
  const checks = [...(options.rebaseChecks ?? [])]
  const transport = fakeTransport({
    'api:get': (_account, path) => {
      if (String(path).endsWith('/closes_issues'))
        return {
          ok: true,
          result: { body: [{ id: 31, project_id: 5, iid: 12 }], status: 200, stale: false, fetchedAt: '', page: null },
        }
      // The head commit's external statuses (none here).
      if (String(path).endsWith('/statuses'))
        return { ok: true, result: { body: [], status: 200, stale: false, fetchedAt: '', page: null } }
      if (String(path).endsWith('/pipelines/61/jobs'))
        return {
          ok: true,
          result: { body: PIPELINE_JOBS, status: 200, stale: false, fetchedAt: '', page: null },
        }
      if (String(path).endsWith('/approvals'))
        return {
          ok: true,
          result: {
            body: {
              approvals_required: 2,
              approvals_left: 2 - approvedBy.length,
              approved_by: approvedBy.map((user) => ({ user })),
            },
            status: 200,
            stale: false,
            fetchedAt: '',
            page: null,
          },
        }
      return {
        ok: true,
        result: {
          body: { id: 900, rebase_in_progress: checks.shift() ?? false },
          status: 200,
          stale: false,
          fetchedAt: '',
          page: null,
        },
      }
    },
    'merge-requests:approve': () => {
      approvedBy = [...approvedBy, root]
      return { ok: true, result: {} }
    },
    'merge-requests:unapprove': () => {
      approvedBy = approvedBy.filter((u) => u.id !== root.id)
      return { ok: true, result: {} }
    },
    'merge-requests:merge': { ok: true, result: { state: 'merged' } },
    'merge-requests:get': { ok: true, result: {} },
    'issues:get': { ok: true, result: {} },
    'notify:check': { ok: true, result: { accounts: [], pendingTodos: 0, openAlerts: 0 } },
    'todos:list': { ok: true, result: [] },
    'merge-requests:rebase': { ok: true, result: { rebase_in_progress: true } },
  })
  const pinia = createTestingPinia({
    createSpy: vi.fn,
    stubActions: false,
    initialState: {
      accounts: { accounts: [ROOT_ACCOUNT], loaded: true },
      sync: { statuses: { [ROOT_ACCOUNT.id]: status(options.offline ? 'offline' : 'idle') } },
    },
  })
  const wrapper = mount(MergeRequestMergePanel, {
    props: { accountId: ROOT_ACCOUNT.id, mr: { ...base, ...mr } as MergeRequest },
    global: {
      plugins: [pinia],
      provide: { [bridgeKey as symbol]: transport.bridge },
      stubs: { RouterLink: RouterLinkStub },
    },
    attachTo: document.body,
  })
  return { wrapper, transport }
}
const sent = (transport: ReturnType<typeof fakeTransport>, channel: string) =>
  transport.calls.filter((c) => c.channel === channel).map((c) => c.args[1])
const button = (wrapper: ReturnType<typeof mountPanel>['wrapper'], id: string) => wrapper.get(`[data-testid="${id}"]`)

describe('MergeRequestMergePanel', () => {
  it('shows the head pipeline, who approved and how many more approvals are required', async () => {
    const { wrapper } = mountPanel()
    await flushPromises()
    expect(wrapper.text()).toContain('Pipeline #61')
    expect(wrapper.get('[data-testid="mr-pipeline-status"]').text()).toBe('Success')
    // Its stages in order, each job once (the latest try), linked to its page.
    const stages = wrapper.findAll('[data-testid="mr-pipeline-stage"]')
    expect(stages.map((s) => s.attributes('data-stage'))).toEqual(['build', 'test'])
    expect(stages.map((s) => s.findAll('[data-testid="mr-pipeline-job"]').map((j) => j.text()))).toEqual([
      ['compile', 'lint'],
      ['unit'],
    ])
    expect(stages[0].find('.ci-status').attributes('data-status')).toBe('success')
    expect(stages[1].find('.ci-status').attributes('data-status')).toBe('success')
    expect(wrapper.findAllComponents(RouterLinkStub).map((l) => l.props('to'))).toContainEqual({
      path: '/ci-cd/jobs/104',
      query: { account: ROOT_ACCOUNT.id, project: '5' },
    })
    expect(wrapper.findAll('[data-testid="approver"]').map((a) => a.text())).toEqual(['JB Jonas Berg'])
    expect(wrapper.text()).toContain('1 more required')
    expect(button(wrapper, 'approve').text()).toBe('Approve')
    expect(wrapper.find('[data-testid="merge-blocker"]').exists()).toBe(false)
  })

  it('approves online, reads the approvals again, then offers to revoke, which unapproves', async () => {
    const { wrapper, transport } = mountPanel()
    await flushPromises()
    await button(wrapper, 'approve').trigger('click')
    await flushPromises()
    expect(sent(transport, 'merge-requests:approve')).toEqual([{ projectId: 5, iid: 4 }])
    expect(wrapper.text()).not.toContain('more required')
    expect(button(wrapper, 'approve').text()).toBe('Revoke approval')
    expect(wrapper.findAll('[data-testid="approver"]').map((a) => a.text())).toEqual([
      'JB Jonas Berg',
      'A Administrator',
    ])
    expect(wrapper.emitted('changed')).toHaveLength(1)
    await button(wrapper, 'approve').trigger('click')
    await flushPromises()
    expect(sent(transport, 'merge-requests:unapprove')).toEqual([{ projectId: 5, iid: 4 }])
    expect(button(wrapper, 'approve').text()).toBe('Approve')
  })

  it('merges the head it shows, with the squash and delete-branch choices, then reads what the merge changed: itself, the issues it closed, the to-dos', async () => {
    const { wrapper, transport } = mountPanel()
    await flushPromises()
    await button(wrapper, 'merge').trigger('click')
    await flushPromises()
    expect(sent(transport, 'merge-requests:merge')).toEqual([
      { projectId: 5, iid: 4, sha: 'abc123', squash: false, shouldRemoveSourceBranch: true },
    ])
    expect(transport.calls.filter((c) => c.channel === 'merge-requests:get').map((c) => c.args.slice(1))).toEqual([
      [{ project_id: 5, iid: 4 }, { refresh: true }],
    ])
    expect(transport.calls.filter((c) => c.channel === 'issues:get').map((c) => c.args.slice(1))).toEqual([
      [{ project_id: 5, iid: 12 }, { refresh: true }],
    ])
    expect(transport.calls.filter((c) => c.channel === 'notify:check').map((c) => c.args)).toEqual([[ROOT_ACCOUNT.id]])
  })

  it('rebases and waits while the server says the rebase is in progress, Merge off meanwhile, then asks for the new head', async () => {
    const { wrapper, transport } = mountPanel({}, { rebaseChecks: [true] })
    await flushPromises()
    await button(wrapper, 'rebase').trigger('click')
    await flushPromises()
    expect(sent(transport, 'merge-requests:rebase')).toEqual([{ projectId: 5, iid: 4 }])
    expect(button(wrapper, 'rebase').text()).toBe('Rebasing…')
    expect(button(wrapper, 'merge').attributes('disabled')).toBeDefined()
    expect(wrapper.emitted('changed')).toBeUndefined()
    await vi.waitFor(() => expect(wrapper.emitted('changed')).toHaveLength(1), { timeout: 5000 })
    expect(
      transport.calls
        .filter((c) => c.channel === 'api:get' && c.args[1] === '/projects/5/merge_requests/4')
        .map((c) => c.args[2]),
    ).toEqual([{ include_rebase_in_progress: true }, { include_rebase_in_progress: true }])
    expect(button(wrapper, 'rebase').text()).toBe('Rebase')
  })

  it.each([
    ['a draft', { draft: true }, 'Marked as draft'],
    ['conflicts', { has_conflicts: true }, 'conflicts with the target branch'],
    ['a merged one', { state: 'merged' }, 'This merge request is merged.'],
    ['a check still running', { merge_status: 'checking' }, 'still checking'],
  ] as const)('Merge is off with the reason for %s', async (_name, mr, reason) => {
    const { wrapper, transport } = mountPanel(mr as Partial<MergeRequest>)
    await flushPromises()
    expect(button(wrapper, 'merge-blocker').text()).toContain(reason)
    expect(button(wrapper, 'merge').attributes('disabled')).toBeDefined()
    await button(wrapper, 'merge').trigger('click')
    expect(sent(transport, 'merge-requests:merge')).toEqual([])
  })

  it('offline, merge, rebase and approval are off and say the server is needed', async () => {
    const { wrapper } = mountPanel({}, { offline: true })
    await flushPromises()
    expect(button(wrapper, 'merge-blocker').text()).toContain('Offline: merging needs the server')
    for (const id of ['merge', 'rebase', 'approve']) expect(button(wrapper, id).attributes('disabled')).toBeDefined()
  })
})
