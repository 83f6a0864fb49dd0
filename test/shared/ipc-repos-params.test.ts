import { describe, expect, it } from 'vitest'
import { reposValidators } from '../../src/shared/ipc/repos'

/**
 * The repository channels' requests are TypeBox schemas (src/shared/ipc/repos.ts); refs and paths
 * are explained refinements, so a refusal says which rule the value broke, as the hand checks did.
 */
describe('repository request schemas', () => {
  it.each([
    ['repos:tree', { projectId: 1, ref: 'refs/heads/../../config' }, 'ref: a ref must not contain .. or @{ or be @'],
    ['repos:tree', { projectId: 1, ref: 'main', extra: 1 }, 'unknown field extra'],
    ['repos:tree', { ref: 'main' }, 'projectId is missing'],
    ['repos:tree', { projectId: 0, ref: 'main' }, 'projectId: expected a project id (a positive integer)'],
    ['repos:tree', 'main', 'expected an object'],
    ['repos:blob', { projectId: 1, ref: 'main', path: '' }, 'path: a file path must not be empty'],
    ['repos:blob', { projectId: 1, ref: 'main', path: '../etc' }, 'path: a path must not contain . or .. segments'],
    ['repos:log', { projectId: 1, ref: 'main', perPage: 1000 }, 'perPage: expected 1 to 100'],
    ['repos:commit', { projectId: 1, sha: '-n1' }, 'sha: a ref must not start with -'],
    ['repos:compare', { projectId: 1, from: 'main', to: 'dev', straight: 1 }, 'straight: expected true or false'],
    ['repos:search', { query: '  ' }, 'query: expected search text (1 to 500 characters)'],
    ['repos:merge-request-changes', { projectId: 1, iid: -1 }, 'iid: expected an iid'],
  ] as const)('%s refuses %j: %s', (channel, request, problem) => {
    expect(reposValidators[channel](['acct', request])).toBe(`request: ${problem}`)
  })

  it('accepts the root as a directory, and the optional fields left out or given', () => {
    expect(reposValidators['repos:tree'](['acct', { projectId: 1, ref: 'main', path: '' }])).toBeNull()
    expect(reposValidators['repos:tree'](['acct', { projectId: 1, ref: 'feature/x' }])).toBeNull()
    const log = { projectId: 1, ref: 'v1.0', path: 'src/a.ts', page: 2, perPage: 100 }
    expect(reposValidators['repos:log'](['acct', log])).toBeNull()
    expect(reposValidators['repos:search'](['acct', { query: 'needle', projectId: 3, limit: 200 }])).toBeNull()
  })
})
