// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { defineComponent, h } from 'vue'
import { createMemoryHistory, createRouter, RouterView } from 'vue-router'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import RepositoryCloneControls from '../../../src/renderer/components/repository/RepositoryCloneControls.vue'
import RepositoryView from '../../../src/renderer/views/repository/RepositoryView.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import { useShortcuts } from '../../../src/renderer/composables/use-shortcuts'
import type { IpcResponse } from '../../../src/shared/ipc/contract'
import type {
  RepoBlame,
  RepoBlob,
  RepoClone,
  RepoCommit,
  RepoCommitDetail,
  RepoLog,
  RepoRefs,
  RepoTree,
} from '../../../src/shared/ipc/repos'
import { fakeTransport, ROOT_ACCOUNT } from '../support/fake-bridge'

enableAutoUnmount(afterEach)
beforeEach(() => {
  document.body.innerHTML = ''
})

const ACCOUNT = ROOT_ACCOUNT.id
const origin = { source: 'clone', stale: false, fetchedAt: '2024-05-01T10:00:00.000Z' } as const
const clone: RepoClone = {
  accountId: ACCOUNT,
  projectId: 5,
  pathWithNamespace: 'kestrel/atlas',
  name: 'Atlas',
  webUrl: null,
  state: 'ready',
  defaultBranch: 'main',
  clonedAt: '2024-05-01T09:00:00.000Z',
  fetchedAt: '2024-05-01T10:00:00.000Z',
  lastError: null,
  sizeBytes: 20480,
  progress: null,
}
const refs: RepoRefs = {
  ...origin,
  defaultBranch: 'main',
  branches: [
    { name: 'main', commit: 'a'.repeat(40), default: true },
    { name: 'feature/x', commit: 'b'.repeat(40), default: false },
  ],
  tags: [{ name: 'v1.0', commit: 'c'.repeat(40), message: 'First' }],
}
const root: RepoTree = {
  ...origin,
  ref: 'main',
  commit: 'a'.repeat(40),
  path: '',
  entries: [
    { name: 'src', path: 'src', type: 'tree', mode: '040000', id: '1'.repeat(40) },
    { name: 'README.md', path: 'README.md', type: 'blob', mode: '100644', id: '2'.repeat(40) },
    { name: 'logo.png', path: 'logo.png', type: 'blob', mode: '100644', id: '3'.repeat(40) },
  ],
}
const src: RepoTree = {
  ...origin,
  ref: 'main',
  commit: 'a'.repeat(40),
  path: 'src',
  entries: [{ name: 'app.ts', path: 'src/app.ts', type: 'blob', mode: '100644', id: '4'.repeat(40) }],
}
const blob = (path: string, extra: Partial<RepoBlob>): RepoBlob => ({
  ...origin,
  ref: 'main',
  path,
  id: '9'.repeat(40),
  size: 42,
  binary: false,
  tooLarge: false,
  text: null,
  imageDataUrl: null,
  ...extra,
})
const BLOBS: Record<string, RepoBlob> = {
  'src/app.ts': blob('src/app.ts', { text: 'export const answer = 42\n/* two\nlines */\n' }),
  'README.md': blob('README.md', { text: '# Atlas\n\nMaps of **everything**.\n' }),
  'logo.png': blob('logo.png', { binary: true, imageDataUrl: 'data:image/png;base64,iVBORw0KGgo=' }),
  'data.bin': blob('data.bin', { binary: true, size: 2048 }),
}
const commit = (n: number): RepoCommit => ({
  id: String(n).padStart(40, '0'),
  short_id: String(n).padStart(8, '0'),
  title: `Commit ${n}`,
  message: `Commit ${n}\n\nBody ${n}`,
  author_name: 'Ada',
  author_email: 'ada@example.com',
  authored_date: '2024-05-01T10:00:00.000+02:00',
  committer_name: 'Ada',
  committer_email: 'ada@example.com',
  committed_date: '2024-05-01T10:00:00.000+02:00',
  parent_ids: [String(n - 1).padStart(40, '0')],
  web_url: null,
})
const detail: RepoCommitDetail = {
  ...origin,
  commit: commit(3),
  overflow: false,
  diffs: [
    {
      old_path: 'src/app.ts',
      new_path: 'src/app.ts',
      a_mode: '100644',
      b_mode: '100644',
      new_file: false,
      renamed_file: false,
      deleted_file: false,
      diff: '@@ -1,2 +1,2 @@\n-export const answer = 41\n+export const answer = 42\n // end\n',
    },
  ],
}

const ok = (result: unknown): IpcResponse => ({ ok: true, result })

async function mountBrowser(path: string, answers: Record<string, unknown> = {}) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const stub = { render: () => null }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      ...['tree', 'blob', 'blame', 'commits', 'compare'].map((tab) => ({
        path: `/a/:account/projects/:projectId(\\d+)/repository/${tab}`,
        name: `repository-${tab}`,
        component: RepositoryView,
      })),
      {
        path: '/a/:account/projects/:projectId(\\d+)/repository/commit/:sha',
        name: 'repository-commit',
        component: RepositoryView,
      },
      { path: '/:any(.*)*', component: stub },
    ],
  })
  const transport = fakeTransport({
    'accounts:list': ok([ROOT_ACCOUNT]),
    'labels:list': ok([]),
    'projects:list': ok([{ id: 5, name: 'Atlas', path_with_namespace: 'kestrel/atlas' }]),
    'users:list': ok([]),
    'sync:status': ok({ accountId: ACCOUNT, state: 'idle' }),
    'repos:list': ok([clone]),
    'repos:refs': ok(refs),
    'repos:tree': (_a: unknown, r: unknown) => ok((r as { path?: string }).path === 'src' ? src : root),
    'repos:blob': (_a: unknown, r: unknown) => ok(BLOBS[(r as { path: string }).path]),
    'repos:log': (_a: unknown, r: unknown) => {
      const page = (r as { page?: number }).page ?? 1
      const list: RepoLog = {
        ...origin,
        commits: page === 1 ? Array.from({ length: 30 }, (_, i) => commit(60 - i)) : [commit(30), commit(29)],
        page,
        perPage: 30,
        hasMore: page === 1,
      }
      return ok(list)
    },
    'repos:commit': ok(detail),
    'repos:fetch': ok({ ...clone, fetchedAt: '2024-05-02T10:00:00.000Z' }),
    ...Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, typeof v === 'function' ? v : ok(v)])),
  } as Record<string, IpcResponse | ((...args: readonly unknown[]) => IpcResponse)>)
  const Shell = defineComponent({
    setup() {
      useShortcuts()
      return () => h(RouterView)
    },
  })
  await router.push(path)
  mount(Shell, {
    global: { plugins: [pinia, router], provide: { [bridgeKey as symbol]: transport.bridge } },
    attachTo: document.body,
  })
  await router.isReady()
  await flushPromises()
  return { transport, router }
}

const press = async (key: string) => {
  window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
  await flushPromises()
}
const q = (selector: string) => document.querySelector<HTMLElement>(selector)
const qa = (selector: string) => [...document.querySelectorAll<HTMLElement>(selector)]

describe('repository browser', () => {
  it('lists the tree at the default branch, directories first, with the offline badge of a clone', async () => {
    const { transport } = await mountBrowser(`/a/${ACCOUNT}/projects/5/repository/tree`)
    expect(q('[data-testid="repo-title"]')?.textContent).toBe('kestrel/atlas')
    expect(qa('[data-testid="repo-tree-entry"]').map((e) => e.dataset.path)).toEqual(['src', 'README.md', 'logo.png'])
    expect(q('[data-testid="repo-source"]')?.dataset.source).toBe('clone')
    expect(q('[data-testid="repo-source"]')?.textContent).toContain('Offline copy')
    expect(transport.calls.find((c) => c.channel === 'repos:tree')?.args).toEqual([
      ACCOUNT,
      { projectId: 5, ref: 'main', path: '' },
    ])
  })

  it('moves with j and k, opens with o, and goes up with u', async () => {
    const { router } = await mountBrowser(`/a/${ACCOUNT}/projects/5/repository/tree`)
    const activePath = () => q('.repo-tree__row--active')?.dataset.path
    expect(activePath()).toBe('src')
    await press('j')
    await press('j')
    expect(activePath()).toBe('logo.png')
    await press('k')
    await press('k')
    await press('o')
    expect(router.currentRoute.value.name).toBe('repository-tree')
    expect(router.currentRoute.value.query).toEqual({ path: 'src' })
    expect(qa('[data-testid="repo-tree-entry"]').map((e) => e.dataset.path)).toEqual(['src/app.ts'])
    expect(
      qa('[data-testid="repo-breadcrumbs"] a, [data-testid="repo-breadcrumbs"] span:not([aria-hidden])').map(
        (e) => e.textContent,
      ),
    ).toEqual(['atlas', 'src'])
    await press('o')
    expect(router.currentRoute.value.name).toBe('repository-blob')
    expect(router.currentRoute.value.query).toEqual({ path: 'src/app.ts' })
    await press('u')
    expect(router.currentRoute.value.query).toEqual({ path: 'src' })
    await press('u')
    expect(router.currentRoute.value.query).toEqual({})
  })

  it('shows code highlighted with line numbers, a comment spanning lines coloured on each', async () => {
    await mountBrowser(`/a/${ACCOUNT}/projects/5/repository/blob?path=src/app.ts`)
    const lines = qa('.repo-file__line')
    expect(lines.map((l) => l.textContent)).toEqual(['export const answer = 42', '/* two', 'lines */'])
    expect(lines[0].querySelector('.hljs-keyword')?.textContent).toBe('export')
    expect(lines[2].querySelector('.hljs-comment')?.textContent).toBe('lines */')
    expect(qa('.repo-file__number').map((n) => n.dataset.line)).toEqual(['1', '2', '3'])
  })

  it('renders Markdown through the sanitised component, with the source a click away', async () => {
    await mountBrowser(`/a/${ACCOUNT}/projects/5/repository/blob?path=README.md`)
    expect(q('[data-testid="repo-file-markdown"] h1')?.textContent).toBe('Atlas')
    expect(q('[data-testid="repo-file-markdown"] strong')?.textContent).toBe('everything')
    q('[data-testid="repo-file-code"]')?.click()
    await flushPromises()
    expect(qa('.repo-file__line').map((l) => l.textContent)).toEqual(['# Atlas', '', 'Maps of **everything**.'])
  })

  it('shows a small image from its data URL, and a notice for other binary files', async () => {
    await mountBrowser(`/a/${ACCOUNT}/projects/5/repository/blob?path=logo.png`)
    expect(q('[data-testid="repo-file-image"] img')?.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=')
    document.body.innerHTML = ''
    await mountBrowser(`/a/${ACCOUNT}/projects/5/repository/blob?path=data.bin`)
    expect(q('[data-testid="repo-file-binary"]')?.textContent).toContain('Binary file (2.0 KB)')
  })

  it('pages through history and opens a commit with its diff', async () => {
    const { router, transport } = await mountBrowser(`/a/${ACCOUNT}/projects/5/repository/commits?ref=feature/x`)
    expect(qa('[data-testid="repo-commit-row"]')).toHaveLength(30)
    q('[data-testid="repo-history-more"]')?.click()
    await flushPromises()
    expect(qa('[data-testid="repo-commit-row"]')).toHaveLength(32)
    expect(q('[data-testid="repo-history-more"]')).toBeNull()
    expect(transport.calls.filter((c) => c.channel === 'repos:log').map((c) => c.args[1])).toEqual([
      { projectId: 5, ref: 'feature/x', path: '', page: 1, perPage: 30 },
      { projectId: 5, ref: 'feature/x', path: '', page: 2, perPage: 30 },
    ])
    await press('j')
    await press('o')
    expect(router.currentRoute.value.name).toBe('repository-commit')
    expect(router.currentRoute.value.params.sha).toBe(commit(59).id)
    expect(q('[data-testid="repo-commit-title"]')?.textContent).toBe('Commit 3')
    expect(q('.repo-commit__body')?.textContent).toBe('Body 3')
    expect(q('[data-testid="review-file-header"]')?.dataset.path).toBe('src/app.ts')
    expect(qa('.review-row--addition .review-row__code').map((l) => l.textContent)).toEqual([
      'export const answer = 42',
    ])
  })

  it('blames a file: lines grouped by commit, each group’s commit opening it, newer groups shaded stronger', async () => {
    const older = { ...commit(1), committed_date: '2024-01-01T00:00:00.000Z' }
    const newer = { ...commit(2), committed_date: '2024-05-01T00:00:00.000Z' }
    const blame: RepoBlame = {
      ...origin,
      ref: 'main',
      path: 'src/app.ts',
      binary: false,
      tooLarge: false,
      ranges: [
        { commit: older, lines: ['export const a = 1', 'export const b = 2'] },
        { commit: newer, lines: ['export const c = 3'] },
      ],
    }
    const { router, transport } = await mountBrowser(`/a/${ACCOUNT}/projects/5/repository/blame?path=src/app.ts`, {
      'repos:blame': blame,
    })
    expect(transport.calls.find((c) => c.channel === 'repos:blame')?.args[1]).toEqual({
      projectId: 5,
      ref: 'main',
      path: 'src/app.ts',
    })
    expect(q('.repo-blame__meta')?.textContent).toBe('3 lines · 2 commits')
    expect(qa('[data-testid="repo-blame-line"] .repo-blame__code').map((l) => l.textContent)).toEqual([
      'export const a = 1',
      'export const b = 2',
      'export const c = 3',
    ])
    expect(qa('[data-testid="repo-blame-commit"]').map((a) => a.textContent)).toEqual([older.short_id, newer.short_id])
    const shades = qa('.repo-blame__age').map((bar) => bar.style.getPropertyValue('--age-shade'))
    expect(shades).toEqual(['15%', '15%', '90%'])
    expect(q('[data-testid="repo-view-blame"]')?.classList.contains('active')).toBe(true)
    q('[data-testid="repo-blame-commit"]')?.click()
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('repository-commit')
    expect(router.currentRoute.value.params.sha).toBe(older.id)
  })

  it('offers Cherry-pick and Revert on a commit, off with the reason while the server cannot be reached', async () => {
    await mountBrowser(`/a/${ACCOUNT}/projects/5/repository/commit/${commit(3).id}`)
    expect(q('[data-testid="repo-commit-cherry-pick"]')?.hasAttribute('disabled')).toBe(false)
    await mountBrowser(`/a/${ACCOUNT}/projects/5/repository/commit/${commit(3).id}`, {
      'repos:list': [],
      'repos:refs': { ...refs, source: 'server', stale: true },
      'repos:commit': { ...detail, source: 'server', stale: true },
    })
    for (const action of ['cherry-pick', 'revert']) {
      const button = qa(`[data-testid="repo-commit-${action}"]`).pop()
      expect(button?.hasAttribute('disabled')).toBe(true)
      expect(button?.getAttribute('title')).toContain('Needs the server')
    }
  })

  it('shows where a server answer came from: fresh, or a saved copy while offline', async () => {
    await mountBrowser(`/a/${ACCOUNT}/projects/5/repository/tree`, {
      'repos:list': [],
      'repos:tree': { ...root, source: 'server', stale: true, fetchedAt: '2024-04-01T00:00:00.000Z' },
    })
    expect(q('[data-testid="repo-source"]')?.dataset.source).toBe('stale')
    expect(q('[data-testid="repo-clone-status"]')?.textContent).toContain('Not cloned')
    expect(q('[data-testid="repo-clone-button"]')).not.toBeNull()
  })

  it('says why a read failed, readably', async () => {
    await mountBrowser(`/a/${ACCOUNT}/projects/5/repository/tree`, {
      'repos:list': [],
      'repos:tree': () => ({
        ok: false,
        error: {
          code: 'offline',
          message: 'Offline, and /projects/5/repository/tree was never fetched on this device.',
        },
      }),
    })
    expect(q('[role="alert"]')?.textContent).toContain('Needs the server')
    expect(q('[role="alert"]')?.textContent).toContain('never fetched on this device')
  })
})

describe('RepositoryCloneControls', () => {
  async function mountControls(clones: RepoClone[], extra: Record<string, unknown> = {}) {
    const pinia = createPinia()
    setActivePinia(pinia)
    const transport = fakeTransport({
      'repos:list': ok(clones),
      ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, typeof v === 'function' ? v : ok(v)])),
    } as Record<string, IpcResponse>)
    const wrapper = mount(RepositoryCloneControls, {
      props: { accountId: ACCOUNT, projectId: 5 },
      global: { plugins: [pinia], provide: { [bridgeKey as symbol]: transport.bridge } },
      attachTo: document.body,
    })
    const { useRepositoriesStore } = await import('../../../src/renderer/stores/repositories')
    await useRepositoriesStore().ensureLoaded()
    await flushPromises()
    return { wrapper, transport }
  }

  it('clones on request, shows progress from events, and offers fetch once ready', async () => {
    let finish: (r: IpcResponse) => void = () => undefined
    const { wrapper, transport } = await mountControls([], {
      'repos:clone': () => new Promise<IpcResponse>((r) => (finish = r)) as unknown as IpcResponse,
    })
    expect(wrapper.find('[data-testid="repo-clone-status"]').text()).toContain('Not cloned')
    await wrapper.find('[data-testid="repo-clone-button"]').trigger('click')
    expect(transport.calls.at(-1)).toEqual({ channel: 'repos:clone', args: [ACCOUNT, 5] })
    transport.emit('repos:did-change', {
      accountId: ACCOUNT,
      projectId: 5,
      clone: { ...clone, state: 'cloning', clonedAt: null, fetchedAt: null },
    })
    transport.emit('repos:did-progress', {
      accountId: ACCOUNT,
      projectId: 5,
      operation: 'clone',
      phase: 'Receiving objects',
      loaded: 5,
      total: 10,
      bytes: 4096,
    })
    await flushPromises()
    expect(wrapper.find('[data-testid="repo-clone-progress"]').text()).toContain('Receiving objects 5/10 · 4.0 KB')
    expect(wrapper.find('[data-testid="repo-cancel"]').exists()).toBe(true)
    finish(ok(clone))
    await flushPromises()
    expect(wrapper.find('[data-testid="repo-clone-status"]').text()).toBe('Cloned: readable offline')
    expect(wrapper.find('[data-testid="repo-fetch"]').exists()).toBe(true)
  })

  it('shows a failed fetch’s reason and keeps fetching disabled offline', async () => {
    const { wrapper } = await mountControls([clone], {
      'repos:fetch': () => ({
        ok: false,
        error: { code: 'forbidden', message: 'The server does not let this account read the repository.' },
      }),
    })
    await wrapper.find('[data-testid="repo-fetch"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[role="alert"]').text()).toContain('does not let this account read the repository')
    await wrapper.setProps({ offline: true })
    expect(wrapper.find('[data-testid="repo-fetch"]').attributes('disabled')).toBeDefined()
  })
})
