// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import RepositoryCommitActions from '../../../src/renderer/components/repository/RepositoryCommitActions.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import type { RepoRefs } from '../../../src/shared/ipc/repos'
import { fakeTransport } from '../support/fake-bridge'

/*
 * Cherry-pick and Revert of a commit: the dialog's target branch is the project's default branch,
 * also when the dialog opened before the branches were read (a commit opened from a link).
 */

beforeEach(() => {
  setActivePinia(createPinia())
  document.body.innerHTML = ''
})

const SHA = 'c'.repeat(40)
const COMMIT = {
  id: SHA,
  short_id: SHA.slice(0, 8),
  title: 'Fix the timeout',
  message: 'Fix the timeout\n',
  author_name: 'Rita',
  author_email: 'rita@example.com',
  authored_date: '2024-05-01T10:00:00Z',
  committer_name: 'Rita',
  committer_email: 'rita@example.com',
  committed_date: '2024-05-01T10:00:00Z',
  parent_ids: ['a'.repeat(40)],
  web_url: null,
}
const REFS: RepoRefs = {
  source: 'server',
  stale: false,
  fetchedAt: null,
  defaultBranch: 'main',
  branches: [
    { name: 'main', commit: SHA, default: true },
    { name: 'hotfix', commit: SHA, default: false },
  ],
  tags: [],
}

function mountActions(refs: RepoRefs | null) {
  const transport = fakeTransport({
    'api:send': { ok: true, result: { status: 201, body: { id: 'e'.repeat(40) } } },
  })
  const wrapper = mount(RepositoryCommitActions, {
    props: { accountId: 'acc', projectId: 5, commit: COMMIT, refs, commitTo: (sha: string) => `/commit/${sha}` },
    global: { provide: { [bridgeKey as symbol]: transport.bridge }, stubs: { RouterLink: true } },
    attachTo: document.body,
  })
  return { wrapper, transport }
}

const submit = () => document.querySelector<HTMLButtonElement>('[data-testid="repo-commit-change-submit"]')!
const sent = (t: ReturnType<typeof fakeTransport>) =>
  t.calls.filter((c) => c.channel === 'api:send').map((c) => c.args[1])

describe('cherry-pick and revert of a commit', () => {
  it('targets the default branch when the dialog opens with the branches read', async () => {
    const { wrapper, transport } = mountActions(REFS)
    await wrapper.find('[data-testid="repo-commit-cherry-pick"]').trigger('click')
    await flushPromises()
    submit().click()
    await flushPromises()
    expect(sent(transport)).toEqual([
      { method: 'POST', path: `/projects/5/repository/commits/${SHA}/cherry_pick`, body: { branch: 'main' } },
    ])
  })

  it('opened before the branches arrive, takes the default branch once they do', async () => {
    const { wrapper, transport } = mountActions(null)
    await wrapper.find('[data-testid="repo-commit-revert"]').trigger('click')
    await flushPromises()
    expect(submit().disabled).toBe(true)
    await wrapper.setProps({ refs: REFS })
    await flushPromises()
    expect(submit().disabled).toBe(false)
    expect(document.querySelector('[data-testid="repo-ref-picker"]')?.textContent).toContain('main')
    submit().click()
    await flushPromises()
    expect(sent(transport)).toEqual([
      { method: 'POST', path: `/projects/5/repository/commits/${SHA}/revert`, body: { branch: 'main' } },
    ])
  })
})
