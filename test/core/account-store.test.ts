import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { AccountStore } from '../../src/main/core/accounts/account-store'
import { isCredential } from '../../src/main/core/api/credentials'

const account = {
  id: '5b0c1c0e-0000-4000-8000-000000000001',
  baseUrl: 'https://gitlab.example.com',
  username: 'ada',
  userId: 7,
  name: 'Ada Lovelace',
  avatarUrl: null,
  authKind: 'pat',
  addedAt: '2026-11-27T10:00:00.000Z',
}

/**
 * What main reads back from disk is checked against the same schemas the types come from
 * (shared/ipc/accounts.ts Account, core/api/credentials.ts Credential).
 */
describe('stored accounts and credentials read back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-account-store-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('keeps the entries of accounts.json that are accounts, without their other fields, and drops the rest', async () => {
    const file = join(dir, 'accounts.json')
    const local = { ...account, id: 'local', kind: 'local', avatarUrl: 'https://x.test/a.png', caFile: '/ca.pem' }
    const signedOut = { ...account, id: 'b', signInRequired: { reason: '401', since: '2026-11-27T11:00:00Z' } }
    const entries = [
      { ...account, token: 'glpat-should-not-stay' },
      local,
      signedOut,
      { ...account, id: 'c', userId: '7' },
      { ...account, id: 'd', authKind: 'saml' },
      { ...account, id: 'e', kind: 'remote' },
      { ...account, id: 'f', signInRequired: { reason: 401 } },
      { ...account, id: 'g', avatarUrl: undefined },
      'not an account',
      null,
    ]
    writeFileSync(file, JSON.stringify({ version: 1, accounts: entries }))
    expect(await new AccountStore(file).list()).toEqual([account, local, signedOut])
  })

  it.each([
    [{ kind: 'pat', token: 'glpat-x' }, true],
    [{ kind: 'oauth', accessToken: 'a', refreshToken: 'r', expiresAt: 1_800_000_000_000 }, true],
    [{ kind: 'pat', token: 'glpat-x', note: 'other fields are allowed' }, true],
    [{ kind: 'pat', token: '' }, false],
    [{ kind: 'oauth', accessToken: 'a', refreshToken: 'r' }, false],
    [{ kind: 'oauth', accessToken: 'a', refreshToken: 'r', expiresAt: 'soon' }, false],
    [{ kind: 'password', token: 'x' }, false],
    ['glpat-x', false],
    [null, false],
  ])('takes %j as a keychain credential: %s', (value, expected) => {
    expect(isCredential(value)).toBe(expected)
  })
})
