import { describe, expect, it } from 'vitest'
import {
  accountForWebUrl,
  deepLinkFromArgv,
  parseWebPath,
  resolveDeepLink,
  webUrlOfLink,
  type ApiGet,
} from '../../src/main/core/shell/deep-links'

/*
 * burrow://open?url=… links (src/main/core/shell/deep-links.ts): parsing GitLab web URLs, the
 * account they belong to, and the route built from the ids the instance answers (an api:get
 * stand-in here; test/main/packaged.fake-electron.test.ts opens links against a real server).
 */

const accounts = [
  { id: 'local', baseUrl: 'http://127.0.0.1:3000' },
  { id: 'work', baseUrl: 'https://gitlab.example.com' },
  { id: 'sub', baseUrl: 'https://forge.example.org/gitlab' },
]

const link = (url: string): string => `burrow://open?url=${encodeURIComponent(url)}`

/** An instance with project `group/app` (id 7), group `group` (id 3) and refs `main` and `feature/x`. */
const apiGet: ApiGet = async (_account, path) => {
  const known: Record<string, unknown> = {
    '/projects/group%2Fapp': { id: 7 },
    '/groups/group': { id: 3 },
    '/groups/group%2Fsub': { id: 4 },
    '/projects/7/repository/commits/main': { id: 'abc' },
    '/projects/7/repository/commits/feature%2Fx': { id: 'def' },
  }
  return path in known ? { status: 200, body: known[path] } : { status: 404, body: { message: '404 Not found' } }
}

describe('deep links', () => {
  it('finds the link among a launch’s arguments', () => {
    expect(deepLinkFromArgv(['/opt/Burrow/burrow', '--no-sandbox', 'burrow://open?url=x'])).toBe('burrow://open?url=x')
    expect(deepLinkFromArgv(['/opt/Burrow/burrow', 'https://gitlab.example.com'])).toBeNull()
  })

  it('reads only burrow://open?url=<http(s) URL>', () => {
    expect(webUrlOfLink(link('https://gitlab.example.com/g/p/-/issues/1'))).toEqual(
      new URL('https://gitlab.example.com/g/p/-/issues/1'),
    )
    for (const bad of [
      'burrow://app/index.html',
      'burrow://open',
      'burrow://open?url=',
      link('javascript:alert(1)'),
      link('file:///etc/passwd'),
      'https://gitlab.example.com',
      'not a url',
    ]) {
      expect(typeof webUrlOfLink(bad), bad).toBe('string')
    }
  })

  it('matches a URL to the account of its instance, under a relative URL root', () => {
    expect(accountForWebUrl(new URL('https://gitlab.example.com/g/p/-/issues/1'), accounts)).toEqual({
      account: accounts[1],
      path: '/g/p/-/issues/1',
    })
    expect(accountForWebUrl(new URL('https://forge.example.org/gitlab/g/p/-/issues/1'), accounts)).toEqual({
      account: accounts[2],
      path: '/g/p/-/issues/1',
    })
    expect(accountForWebUrl(new URL('https://forge.example.org/other/g/p'), accounts)).toBeNull()
    expect(accountForWebUrl(new URL('http://gitlab.example.com/g/p/-/issues/1'), accounts)).toBeNull()
    expect(accountForWebUrl(new URL('https://evil.example/g/p/-/issues/1'), accounts)).toBeNull()
  })

  it('parses issue, merge request, epic and file paths', () => {
    expect(parseWebPath('/group/sub/app/-/issues/12')).toEqual({ kind: 'issue', projectPath: 'group/sub/app', iid: 12 })
    expect(parseWebPath('/group/app/-/work_items/12')).toEqual({ kind: 'issue', projectPath: 'group/app', iid: 12 })
    expect(parseWebPath('/group/app/-/merge_requests/4')).toEqual({
      kind: 'merge_request',
      projectPath: 'group/app',
      iid: 4,
    })
    expect(parseWebPath('/group/app/merge_requests/4')).toEqual({
      kind: 'merge_request',
      projectPath: 'group/app',
      iid: 4,
    })
    expect(parseWebPath('/groups/group/sub/-/epics/2')).toEqual({ kind: 'epic', groupPath: 'group/sub', iid: 2 })
    expect(parseWebPath('/group/app/-/blob/main/src/a%20b.ts')).toEqual({
      kind: 'file',
      projectPath: 'group/app',
      refAndPath: ['main', 'src', 'a b.ts'],
    })
    for (const other of [
      '/group/app',
      '/group/app/-/issues',
      '/group/app/-/issues/x',
      '/group/app/-/issues/1/edit',
      '/-/issues/1',
      '/app/-/issues/1',
      '/groups/g/-/milestones/1',
      '/g/app/-/blob/main',
      '/g/%E0%A4%A/-/issues/1',
    ]) {
      expect(parseWebPath(other), other).toBeNull()
    }
  })

  it('resolves a link to the app’s route with the ids the instance answers', async () => {
    expect(
      await resolveDeepLink(link('https://gitlab.example.com/group/app/-/issues/12#note_5'), accounts, apiGet),
    ).toEqual({ ok: true, accountId: 'work', route: '/a/work/projects/7/issues/12' })
    expect(
      await resolveDeepLink(link('https://gitlab.example.com/group/app/-/merge_requests/4'), accounts, apiGet),
    ).toEqual({ ok: true, accountId: 'work', route: '/a/work/projects/7/merge_requests/4' })
    expect(
      await resolveDeepLink(link('https://gitlab.example.com/groups/group/sub/-/epics/2'), accounts, apiGet),
    ).toEqual({ ok: true, accountId: 'work', route: '/a/work/groups/4/epics/2' })
  })

  it('splits a file URL at the longest ref the instance knows', async () => {
    expect(
      await resolveDeepLink(
        link('https://gitlab.example.com/group/app/-/blob/feature/x/src/main.ts'),
        accounts,
        apiGet,
      ),
    ).toMatchObject({ route: '/a/work/projects/7/repository/blob?ref=feature%2Fx&path=src%2Fmain.ts' })
    expect(
      await resolveDeepLink(link('https://gitlab.example.com/group/app/-/blob/main/README.md'), accounts, apiGet),
    ).toMatchObject({ route: '/a/work/projects/7/repository/blob?ref=main&path=README.md' })
  })

  it('refuses instances that are not accounts, paths that are no item, and items the instance does not have', async () => {
    const refused = await resolveDeepLink(link('https://evil.example/group/app/-/issues/1'), accounts, apiGet)
    expect(refused).toEqual({
      ok: false,
      message: expect.stringContaining('https://evil.example is not one of your accounts’ instances'),
    })
    expect(
      await resolveDeepLink(link('https://gitlab.example.com/group/app/-/pipelines/1'), accounts, apiGet),
    ).toMatchObject({ ok: false, message: expect.stringContaining('none of these') })
    expect(
      await resolveDeepLink(link('https://gitlab.example.com/nobody/app/-/issues/1'), accounts, apiGet),
    ).toMatchObject({ ok: false, message: expect.stringContaining('could not be found') })
    expect(await resolveDeepLink('burrow://settings', accounts, apiGet)).toMatchObject({ ok: false })
  })
})
