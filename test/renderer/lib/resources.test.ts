import { describe, expect, it } from 'vitest'
import { explainCode, toReadableError } from '../../../src/renderer/lib/ipc-errors'
import { adminProjectMoves, adminUsers } from '../../../src/renderer/resources/admin'
import { apiFieldErrors, formRequest, initialValues, validateForm } from '../../../src/renderer/resources/forms'
import { formatBytes, hasRole, logTail, stateTone } from '../../../src/renderer/resources/format'
import { RESOURCES } from '../../../src/renderer/resources/index'
import { forkNamespaces, projectForks } from '../../../src/renderer/resources/forks'
import { outcomeOf } from '../../../src/renderer/resources/outcome'
import {
  fillPath,
  filtersFromRoute,
  filtersToRoute,
  fixedBody,
  fixedQuery,
  listQuery,
  MissingContextError,
  outdatedPaths,
} from '../../../src/renderer/resources/paths'
import { personalTokens } from '../../../src/renderer/resources/personal'
import {
  projectClusters,
  projectEnvironments,
  projectJobs,
  projectLanguages,
  projectMemberList,
  projectPagesDomains,
  projectProtectedEnvironments,
  projectRunners,
  assetLinks,
} from '../../../src/renderer/resources/project'
import { RUNNER_FILTERS } from '../../../src/renderer/resources/shared'
import { checkApiPath } from '../../../src/shared/ipc/api-path'

const context = { accountId: 'a', userId: 1, projectId: 12, groupId: null }

describe('resource paths', () => {
  it('fills context and item placeholders, URL-encoding item values', () => {
    expect(fillPath('/projects/:project/protected_branches/{name}', context, { name: 'release/*' })).toBe(
      '/projects/12/protected_branches/release%2F*',
    )
    expect(fillPath('/users/:user/personal_access_tokens', context)).toBe('/users/1/personal_access_tokens')
  })

  it('says which context is missing', () => {
    expect(() => fillPath('/groups/:group/members', context)).toThrow(MissingContextError)
    expect(() => fillPath('/groups/:group/members', context)).toThrow('Choose a group first.')
    expect(() => fillPath('/runners/{id}', context, {})).toThrow('The item has no id.')
  })

  it('every described path is one the API path validator (api:get, api:send) accepts once filled', () => {
    for (const r of RESOURCES) {
      const templates = [
        r.list?.path,
        r.detail?.path,
        r.singleton?.path,
        r.create?.path,
        r.edit?.path,
        ...(r.actions ?? []).map((a) => a.path),
      ].filter((p): p is string => p !== undefined)
      for (const t of templates)
        expect(
          checkApiPath(
            fillPath(t, { accountId: 'a', userId: 1, projectId: 3, groupId: 4 }, new Proxy({}, { get: () => 'x y/z' })),
          ),
          `${r.family}/${r.key}: ${t}`,
        ).toBeNull()
    }
  })

  it('turns filter values into the API query: flags only when set, tags as arrays, empty values left out', () => {
    expect(
      listQuery(RUNNER_FILTERS, { type: 'group_type', status: null, tag_list: ['docker', 'linux'] }, { per_page: 20 }),
    ).toEqual({ per_page: 20, type: 'group_type', tag_list: ['docker', 'linux'] })
    expect(
      listQuery(adminUsers.list?.filters ?? [], {
        blocked: true,
        admins: false,
        search: '',
        created_after: '2024-01-01T00:00:00.000Z',
      }),
    ).toEqual({ blocked: true, created_after: '2024-01-01T00:00:00.000Z' })
  })

  it('round-trips filters through the route query', () => {
    const values = { type: 'project_type', tag_list: ['a', 'b'] }
    expect(filtersFromRoute(RUNNER_FILTERS, filtersToRoute(RUNNER_FILTERS, values))).toEqual(values)
    expect(filtersFromRoute(RUNNER_FILTERS, { type: 'not-a-type' })).toEqual({})
  })
})

describe('resource forms', () => {
  const create = adminUsers.create!

  it('checks required fields, patterns and GitLab’s password rule', () => {
    const problems = validateForm(create, initialValues(create))
    expect(Object.keys(problems).sort()).toEqual(['email', 'name', 'password', 'username'])
    const filled = {
      ...initialValues(create),
      name: 'Ada',
      username: '-ada',
      email: 'ada@example.com',
      reset_password: true,
    }
    expect(validateForm(create, filled)).toEqual({
      username: 'Username may hold letters, digits, _, . and - (not starting with -).',
    })
    expect(validateForm(create, { ...filled, username: 'ada' })).toEqual({})
    expect(validateForm(create, { ...filled, username: 'ada', reset_password: false, password: 'short' })).toEqual({
      password: 'Password needs at least 8 characters.',
    })
  })

  it('nests dotted names and sends only what changed on an edit', () => {
    const edit = projectClusters.edit!
    const item = {
      id: 3,
      name: 'prod',
      domain: 'example.com',
      enabled: true,
      managed: true,
      environment_scope: '*',
      platform_cluster: { api_url: 'https://k8s.example.com', namespace: 'app', ca_cert: null },
    }
    const values = { ...initialValues(edit, item), 'platform_cluster_attributes.namespace': 'app-2', enabled: false }
    expect(formRequest(edit, values, item)).toEqual({
      body: { platform_cluster_attributes: { namespace: 'app-2' }, enabled: false },
      query: {},
      path: {},
    })
  })

  it('uses a description’s own body (protected environment access levels)', () => {
    const create = projectProtectedEnvironments.create!
    const values = { ...initialValues(create), name: 'production', access_level: 40, user_ids: ['7'] }
    expect(formRequest(create, values).body).toEqual({
      name: 'production',
      deploy_access_levels: [{ access_level: 40 }, { user_id: 7 }],
    })
  })

  it('puts GitLab’s validation messages next to their fields', () => {
    expect(
      apiFieldErrors(create, {
        status: 400,
        body: {
          message: { email: ['has already been taken'], projects_limit: ['must be positive'], base: ['is invalid'] },
        },
      }),
    ).toEqual({
      email: 'Email has already been taken',
      projects_limit: 'Projects limit must be positive',
      '': 'base is invalid',
    })
  })
})

describe('resource formats and outcomes', () => {
  it('administrators have every role; others need the level', () => {
    expect(hasRole('maintainer', { admin: true, level: null })).toBe(true)
    expect(hasRole('maintainer', { admin: false, level: 30 })).toBe(false)
    expect(hasRole('developer', { admin: false, level: 30 })).toBe(true)
    expect(hasRole('admin', { admin: false, level: 50 })).toBe(false)
  })

  it('colours states by meaning, descriptions first', () => {
    expect(stateTone('online')).toBe('success')
    expect(stateTone('blocked')).toBe('error')
    expect(stateTone('instance_type', { instance_type: 'info' })).toBe('info')
  })

  it('reads a secret from the answer once, and says so when there is none', () => {
    expect(
      outcomeOf('secret', 'Token rotated.', { status: 200, body: { token: 'glpat-xyz' } }, 'access token'),
    ).toEqual({ kind: 'secret', text: 'Token rotated.', secret: 'glpat-xyz', what: 'access token' })
    expect(outcomeOf('secret', 'Token rotated.', { status: 200, body: {} }, 'access token')).toEqual({
      kind: 'message',
      text: 'Token rotated. The server sent no access token to show.',
    })
  })
})

describe('resource panels against what Burrow Server answers', () => {
  it('fills `:user` in a list’s fixed query, so an administrator’s own tokens are not everyone’s', () => {
    expect(fixedQuery(personalTokens.list?.query, context)).toEqual({ per_page: 20, user_id: 1 })
    expect(fixedQuery({ per_page: 20, sort: 'desc' }, context)).toEqual({ per_page: 20, sort: 'desc' })
  })

  it('sends a merge request from a fork into the panel’s project (`:project` in an action’s body)', () => {
    const open = projectForks.actions?.find((a) => a.key === 'merge-request')
    expect(fixedBody(open?.body, context)).toEqual({ target_project_id: 12 })
    expect(fillPath(open?.path ?? '', context, { id: 40 })).toBe('/projects/40/merge_requests')
  })

  it('does not send a search shorter than the API accepts (environments: 3 characters)', () => {
    const filters = projectEnvironments.list?.filters ?? []
    expect(listQuery(filters, { search: 're' }, { per_page: 20 })).toEqual({ per_page: 20 })
    expect(listQuery(filters, { search: 'rev' }, { per_page: 20 })).toEqual({ per_page: 20, search: 'rev' })
  })

  it('names the list and the item’s detail as the saved reads a write outdates', () => {
    expect(outdatedPaths(projectRunners, context, { id: 3 })).toEqual(['/projects/12/runners', '/runners/3'])
    expect(outdatedPaths(projectRunners, context, null)).toEqual(['/projects/12/runners'])
    // A context the panel lacks leaves that template out instead of failing the write.
    expect(outdatedPaths(projectRunners, { ...context, projectId: null }, { id: 3 })).toEqual(['/runners/3'])
  })

  it('puts a form’s path fields in the path, not the body (the project of a storage move)', () => {
    const move = adminProjectMoves.actions?.find((a) => a.key === 'move-one')?.form
    expect(move).toBeDefined()
    const values = { ...initialValues(move!), project_id: ' kestrel/website ', destination_storage_name: 'archive' }
    expect(formRequest(move!, values)).toEqual({
      body: { destination_storage_name: 'archive' },
      query: {},
      path: { project_id: 'kestrel/website' },
    })
  })

  it('puts Grape’s parameter errors (`{error: "… does not have a valid value"}`) next to the field they name', () => {
    const bulk = adminProjectMoves.actions?.find((a) => a.key === 'bulk')?.form
    expect(
      apiFieldErrors(bulk!, { status: 400, body: { error: 'destination_storage_name does not have a valid value' } }),
    ).toEqual({ destination_storage_name: 'To storage does not have a valid value' })
    const members = projectMemberList.create!
    expect(
      apiFieldErrors(members, { status: 400, body: { error: 'user_id, username are mutually exclusive' } }),
    ).toEqual({ user_id: 'User id, Username are mutually exclusive' })
    const environments = projectProtectedEnvironments.create!
    expect(
      apiFieldErrors(environments, {
        status: 400,
        body: { error: 'deploy_access_levels[access_level] does not have a valid value' },
      }),
    ).toEqual({ access_level: 'Role allowed to deploy does not have a valid value' })
    // A sentence naming no field stays for the form as a whole.
    expect(apiFieldErrors(bulk!, { status: 400, body: { message: '400 Bad request - Unplayable Job' } })).toEqual({})
  })

  it('a member’s role change always sends the role, which the API requires', () => {
    const edit = projectMemberList.edit!
    const item = { id: 7, access_level: 30, expires_at: null }
    expect(formRequest(edit, { ...initialValues(edit, item), expires_at: '2030-01-01' }, item).body).toEqual({
      access_level: 30,
      expires_at: '2030-01-01',
    })
  })

  it('shows a job log from its end, from the start of a line', () => {
    expect(logTail('one\ntwo\n')).toEqual({ text: 'one\ntwo\n', cut: false })
    expect(logTail('first line\nsecond\nEND', 12)).toEqual({ text: 'second\nEND', cut: true })
    expect(logTail('a'.repeat(10) + 'END', 5)).toEqual({ text: 'aaEND', cut: true })
    expect(logTail(null)).toEqual({ text: '', cut: false })
  })

  it('reads sizes as people do', () => {
    expect([formatBytes(512), formatBytes(2048), formatBytes(5 * 1024 * 1024 + 1), formatBytes(undefined)]).toEqual([
      '512 B',
      '2.0 KB',
      '5.0 MB',
      '—',
    ])
  })

  it('every column and detail field of a description names a value the server sends (sample answers of Burrow Server)', () => {
    const job = {
      id: 5,
      status: 'failed',
      failure_reason: 'script_failure',
      artifacts: [{ file_type: 'trace', size: 2300, filename: 'job.log', file_format: null }],
    }
    const artifacts = projectJobs.detail?.fields.find((f) => f.field === 'artifacts')
    expect(artifacts?.value?.(job)).toEqual(['job.log (trace, 2.2 KB)'])
    const domain = projectPagesDomains.list?.columns.find((c) => c.field === 'certificate')
    expect([
      domain?.value?.({ domain: 'a.example' }),
      domain?.value?.({ certificate: { expired: false } }),
      domain?.value?.({ certificate: { expired: true } }),
    ]).toEqual(['none', 'valid', 'expired'])
    expect(projectProtectedEnvironments.list?.columns.map((c) => c.field)).not.toContain('required_approval_count')
    const upstream = projectForks.detail?.fields.find((f) => f.label === 'Forked from')
    expect([
      upstream?.value?.({ forked_from_project: { id: 1, path_with_namespace: 'kestrel/api' } }),
      upstream?.value?.({ id: 2 }),
    ]).toEqual(['kestrel/api', null])
  })
})

describe('readable errors of core’s codes', () => {
  it('explains offline writes, offline reads with no saved copy, unknown outcomes and the outbox’s refusals', () => {
    expect(toReadableError({ code: 'offline', message: 'x' })).toMatchObject({
      title: 'Needs the server',
      hint: expect.stringContaining('not kept for later'),
    })
    expect(toReadableError({ code: 'offline', message: 'x', details: { read: 'not-saved' } })).toMatchObject({
      title: 'Not saved on this device',
      hint: expect.stringContaining('Open it again'),
    })
    for (const code of ['outcome-unknown', 'not-cached', 'entry-not-found', 'invalid-state']) {
      const readable = toReadableError({ code, message: 'x' })
      expect(readable.title, code).not.toBe('Something went wrong')
      expect(readable.hint, code).not.toBeNull()
    }
    expect(explainCode('offline')).toBe(
      'Needs the server: Changes here go straight to the server and are not kept for later: try again once the instance can be reached.',
    )
  })
})

describe('projectLanguages', () => {
  it('makes rows of GitLab’s languages object, largest share first, skipping what is no share', () => {
    const rowsOf = projectLanguages.list?.rowsOf
    expect(rowsOf?.({ Shell: 12.5, Go: 80.25, Makefile: 7.25, odd: 'x' })).toEqual([
      { language: 'Go', share: 80.25 },
      { language: 'Shell', share: 12.5 },
      { language: 'Makefile', share: 7.25 },
    ])
    expect(rowsOf?.([])).toEqual([])
    expect(rowsOf?.(null)).toEqual([])
  })
})

describe('words on screen, not API values', () => {
  it('names a release link’s kind in words (runbook → Runbook), an unknown one humanized', () => {
    const release = {
      assets: {
        links: [
          { name: 'Runbook', url: 'https://example.com/r', link_type: 'runbook' },
          { name: 'Checksums', url: 'https://example.com/c', link_type: 'other' },
          { name: 'Disk', url: 'https://example.com/d', link_type: 'disk_image' },
          { name: 'Old', url: 'https://example.com/o' },
        ],
      },
    }
    expect(assetLinks(release).map((l) => l.kind)).toEqual(['Runbook', 'Other', 'Disk image', undefined])
  })

  it('shows an admin the user’s ID in the user’s detail', () => {
    expect(adminUsers.detail?.fields.find((f) => f.field === 'id')?.label).toBe('User ID')
  })
})

describe('forkNamespaces', () => {
  const group = (full_path: string, project_creation_level?: string) => ({ id: 1, full_path, project_creation_level })
  /** The server's groups by the viewer's role in them (GET /groups?min_access_level=). */
  const server = (byRole: Record<number, object[]>) => {
    const asked: unknown[] = []
    const read = (path: string, query?: Readonly<Record<string, unknown>>): Promise<unknown> => {
      asked.push([path, query])
      if (path === '/user') return Promise.resolve({ id: 7, username: 'ada' })
      return Promise.resolve(byRole[Number(query?.min_access_level)] ?? [])
    }
    return { read, asked }
  }

  it("offers the viewer's namespace and the groups whose project creation level their role meets", async () => {
    const developerIn = [group('open', 'developer'), group('strict', 'maintainer'), group('closed', 'noone')]
    const maintainerIn = [group('strict-too', 'maintainer'), group('owners', 'owner'), group('plain')]
    const ownerIn = [group('mine', 'owner')]
    const { read } = server({
      30: [...developerIn, ...maintainerIn, ...ownerIn],
      40: [...maintainerIn, ...ownerIn],
      50: ownerIn,
    })
    expect(await forkNamespaces(read, '')).toEqual([
      { value: 'ada', label: 'ada (your namespace)' },
      { value: 'open', label: 'open' },
      { value: 'strict-too', label: 'strict-too' },
      { value: 'plain', label: 'plain' },
      { value: 'mine', label: 'mine' },
    ])
  })

  it('offers an administrator every group, whatever its creation level', async () => {
    const read = (path: string, query?: Readonly<Record<string, unknown>>): Promise<unknown> =>
      Promise.resolve(
        path === '/user'
          ? { username: 'root', is_admin: true }
          : query?.min_access_level === undefined
            ? [group('kestrel', 'maintainer'), group('locked', 'noone')]
            : [],
      )
    expect((await forkNamespaces(read, '')).map((o) => o.value)).toEqual(['root', 'kestrel', 'locked'])
  })

  it('passes the search to the server and keeps the own namespace only when it matches', async () => {
    const { read, asked } = server({ 30: [group('kestrel')] })
    expect((await forkNamespaces(read, 'kest')).map((o) => o.value)).toEqual(['kestrel'])
    expect(asked).toContainEqual([
      '/groups',
      { per_page: 100, order_by: 'path', sort: 'asc', search: 'kest', min_access_level: 30 },
    ])
    expect((await forkNamespaces(read, 'AD')).map((o) => o.value)).toEqual(['ada', 'kestrel'])
  })
})
