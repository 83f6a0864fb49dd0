import { expect, test, type Locator, type Page } from '@playwright/test'
import { addLocalServerAccount, launchBurrow, watchCsp, type RunningBurrow } from './support/burrow'
import { bothThemes, openAt, restApi } from './support/page'

// The panels of the local forge's smaller families against the demo content of a real Burrow
// Server, signed in as its administrator: each creates, lists and deletes through the app and
// checks the server's side through the REST API.
// Serial: the first test adds the account and waits for its first sync.
test.describe.configure({ mode: 'serial' })

let burrow: RunningBurrow
let violations: string[] = []
/** The demo's API project. */
let apiProject = 0

test.beforeAll(async () => {
  // The server seeds the demo content before it listens: over a minute on a busy machine.
  test.setTimeout(320_000)
  burrow = await launchBurrow({ demo: true })
  apiProject = (await api<{ id: number }>('GET', `/projects/${encodeURIComponent('kestrel/platform/dispatch-api')}`)).id
})

test.afterAll(async () => {
  await burrow?.stop()
})

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1360, height: 860 })
  violations = watchCsp(page)
})

test.afterEach(() => {
  expect(violations, 'Content-Security-Policy violations').toEqual([])
})

/** The REST API as the administrator, straight to the server. */
const api = restApi(
  () => burrow.serverUrl,
  () => burrow.rootToken,
)

function open(page: Page, hash: string): Promise<void> {
  return openAt(page, burrow.pageUrl, hash)
}

/** Picks an option of a naive-ui select. */
async function choose(page: Page, select: Locator, option: string): Promise<void> {
  await select.click()
  await page.locator('.n-base-select-option').filter({ hasText: option }).first().click()
}

const rows = (page: Page) => page.getByTestId('resource-row')

test('the administrator adds the local server and the first sync finishes', async ({ page }) => {
  test.setTimeout(240_000)
  await addLocalServerAccount(page, burrow)
})

test('Protected tags: a wildcard protected for Maintainers, listed, and another unprotected', async ({ page }) => {
  await api('POST', `/projects/${apiProject}/protected_tags`, { name: 'nightly-*', create_access_level: 30 })
  await open(page, `#/projects/protected-tags?project=${apiProject}`)
  await expect(page.getByTestId('page-title')).toHaveText('Projects · Protected tags')
  await expect(rows(page).filter({ hasText: 'nightly-*' })).toContainText('Developers + Maintainers')

  await page.getByTestId('resource-create').click()
  await expect(page.getByTestId('resource-form')).toBeVisible()
  await page.getByTestId('field-name').locator('input').fill('v*')
  await choose(page, page.getByTestId('field-create_access_level'), 'No one')
  await bothThemes(page, 'protected-tags-form')
  await page.getByTestId('form-submit').click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText('v*')
  await expect(page.getByTestId('resource-detail')).toContainText('No one')
  const created = await api<{ create_access_levels: { access_level: number }[] }>(
    'GET',
    `/projects/${apiProject}/protected_tags/${encodeURIComponent('v*')}`,
  )
  expect(created.create_access_levels.map((l) => l.access_level)).toEqual([0])

  await page.getByTestId('resource-tab-protected-tags').click()
  await expect(rows(page).filter({ hasText: 'v*' })).toHaveCount(1)
  await bothThemes(page, 'protected-tags-list')

  await rows(page).filter({ hasText: 'nightly-*' }).getByTestId('action-unprotect').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Unprotect', exact: true }).click()
  await expect(rows(page).filter({ hasText: 'nightly-*' })).toHaveCount(0)
  const left = await api<{ name: string }[]>('GET', `/projects/${apiProject}/protected_tags`)
  expect(left.map((t) => t.name)).toEqual(['v*'])
})

test('Badges: a project badge added with placeholders, rendered, edited and deleted; a group badge inherited', async ({
  page,
}) => {
  const group = await api<{ id: number }>('GET', `/groups/${encodeURIComponent('kestrel')}`)
  await api('POST', `/groups/${group.id}/badges`, {
    name: 'Chat',
    link_url: 'https://chat.example/%{project_path}',
    image_url: 'https://img.example/chat.svg',
  })
  await open(page, `#/projects/badges?project=${apiProject}`)
  await expect(page.getByTestId('page-title')).toHaveText('Projects · Badges')
  // The group's badge shows on the project, rendered for it, but is not the project's to delete.
  const chat = rows(page).filter({ hasText: 'Chat' })
  await expect(chat).toContainText('https://chat.example/kestrel/platform/dispatch-api')
  await expect(chat.getByTestId('action-delete')).toHaveCount(0)
  // Opened, it is the group's badge, read-only: the project's badge endpoint does not answer it.
  await chat.click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText('Chat')
  await expect(page.getByTestId('resource-list-only')).toContainText('belongs to a group of the project')
  await expect(page.getByTestId('resource-detail')).toContainText('https://chat.example/%{project_path}')
  await expect(page.getByTestId('resource-error')).toHaveCount(0)
  await expect(page.getByTestId('resource-edit')).toHaveCount(0)
  await expect(page.getByTestId('resource-detail').getByTestId('action-delete')).toHaveCount(0)
  await bothThemes(page, 'badges-group-detail')
  await page.getByTestId('resource-tab-badges').click()

  await page.getByTestId('resource-create').click()
  await page.getByTestId('field-name').locator('input').fill('Pipeline')
  await page.getByTestId('field-link_url').locator('input').fill('https://ci.example/%{project_path}')
  await page
    .getByTestId('field-image_url')
    .locator('input')
    .fill('https://ci.example/%{project_path}/%{default_branch}.svg')
  await bothThemes(page, 'badges-form')
  await page.getByTestId('form-submit').click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText('Pipeline')
  const detail = page.getByTestId('resource-detail')
  await expect(detail).toContainText('https://ci.example/kestrel/platform/dispatch-api/main.svg')
  await expect(detail).toContainText('https://ci.example/%{project_path}/%{default_branch}.svg')
  await bothThemes(page, 'badges-detail')

  await page.getByTestId('resource-edit').click()
  await page.getByTestId('field-name').locator('input').fill('Pipeline status')
  await page.getByTestId('form-submit').click()
  await expect(page.getByTestId('resource-detail-title')).toHaveText('Pipeline status')

  await page.getByTestId('resource-tab-badges').click()
  await expect(rows(page).filter({ hasText: 'Pipeline status' })).toHaveCount(1)
  await bothThemes(page, 'badges-list')
  await rows(page).filter({ hasText: 'Pipeline status' }).getByTestId('action-delete').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(rows(page).filter({ hasText: 'Pipeline status' })).toHaveCount(0)
  const own = await api<{ kind: string }[]>('GET', `/projects/${apiProject}/badges`)
  expect(own.filter((b) => b.kind === 'project')).toEqual([])

  // The group's own panel deletes it.
  await open(page, `#/groups/badges?group=${group.id}`)
  await rows(page).filter({ hasText: 'Chat' }).getByTestId('action-delete').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(rows(page).filter({ hasText: 'Chat' })).toHaveCount(0)
  expect(await api<unknown[]>('GET', `/groups/${group.id}/badges`)).toEqual([])
})

test('Group CI/CD variables: a masked variable added whose value never shows and edited; one key in two scopes edited and deleted by its scope', async ({
  page,
}) => {
  const group = await api<{ id: number }>('GET', `/groups/${encodeURIComponent('kestrel')}`)
  const variables = `/groups/${group.id}/variables`
  await api('POST', variables, { key: 'REGISTRY_HOST', value: 'registry.kestrel.example' })
  await api('POST', variables, {
    key: 'REGISTRY_HOST',
    value: 'registry.staging.example',
    environment_scope: 'staging',
  })
  await open(page, `#/groups/variables?group=${group.id}`)
  await expect(page.getByTestId('page-title')).toHaveText('Groups · CI/CD variables')
  await expect(rows(page).filter({ hasText: 'REGISTRY_HOST' })).toHaveCount(2)

  await page.getByTestId('resource-create').click()
  await page.getByTestId('field-key').locator('input').fill('DEPLOY_TOKEN')
  await page.getByTestId('field-value').locator('input').fill('s3cret-deploy-value')
  await page.getByTestId('field-masked').locator('.n-checkbox').click()
  await bothThemes(page, 'group-variables-form')
  await page.getByTestId('form-submit').click()
  const deploy = rows(page).filter({ hasText: 'DEPLOY_TOKEN' })
  await expect(deploy).toHaveCount(1)
  await expect(page.locator('body')).not.toContainText('s3cret-deploy-value')
  const stored = await api<{ value: string; masked: boolean }>('GET', `${variables}/DEPLOY_TOKEN`)
  expect(stored).toMatchObject({ value: 's3cret-deploy-value', masked: true })
  await bothThemes(page, 'group-variables-list')

  // Edit: the settings as they are, the value left empty (it is never put on screen) and kept.
  await deploy.getByTestId('action-edit').click()
  const form = page.getByTestId('resource-form')
  await expect(form.getByTestId('field-value').locator('input')).toHaveValue('')
  await expect(form.getByTestId('field-environment_scope').locator('input')).toHaveValue('*')
  await form.getByTestId('field-protected').locator('.n-checkbox').click()
  await bothThemes(page, 'group-variables-edit')
  await form.getByTestId('form-submit').click()
  await expect(form).toHaveCount(0)
  await expect(page.locator('body')).not.toContainText('s3cret-deploy-value')
  expect(await api('GET', `${variables}/DEPLOY_TOKEN`)).toMatchObject({
    value: 's3cret-deploy-value',
    masked: true,
    protected: true,
  })

  // The staging REGISTRY_HOST is the one changed, through GitLab's filter[environment_scope].
  const staging = rows(page).filter({ hasText: 'registry.staging.example' })
  await staging.getByTestId('action-edit').click()
  await form.getByTestId('field-value').locator('input').fill('registry-2.staging.example')
  await form.getByTestId('form-submit').click()
  await expect(rows(page).filter({ hasText: 'registry-2.staging.example' })).toHaveCount(1)
  const scoped = (scope: string) =>
    api<{ value: string }>('GET', `${variables}/REGISTRY_HOST?filter[environment_scope]=${encodeURIComponent(scope)}`)
  expect((await scoped('staging')).value).toBe('registry-2.staging.example')
  expect((await scoped('*')).value).toBe('registry.kestrel.example')

  // Deleting the key in all environments leaves its staging one.
  await rows(page).filter({ hasText: 'registry.kestrel.example' }).getByTestId('action-delete').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(rows(page).filter({ hasText: 'registry.kestrel.example' })).toHaveCount(0)
  const left = await api<{ key: string; environment_scope: string }[]>('GET', variables)
  expect(left.map((v) => `${v.key} ${v.environment_scope}`).sort()).toEqual(['DEPLOY_TOKEN *', 'REGISTRY_HOST staging'])
})

test('Group access tokens: a token created is shown once and works, then revoked', async ({ page }) => {
  const group = await api<{ id: number }>('GET', `/groups/${encodeURIComponent('kestrel')}`)
  await open(page, `#/groups/access-tokens?group=${group.id}`)
  await expect(page.getByTestId('page-title')).toHaveText('Groups · Access tokens')
  await page.getByTestId('resource-create').click()
  await page.getByTestId('field-name').locator('input').fill('release-bot')
  await bothThemes(page, 'group-tokens-form')
  await page.getByTestId('form-submit').click()
  const secret = page.getByTestId('resource-secret-value').locator('input')
  await expect(secret).toHaveValue(/^glpat-/)
  const token = await secret.inputValue()
  const answer = await fetch(`${burrow.serverUrl}/api/v4/groups/${group.id}`, { headers: { 'PRIVATE-TOKEN': token } })
  expect(answer.status).toBe(200)
  await bothThemes(page, 'group-tokens-created')
  await page.getByTestId('resource-secret-close').click()

  const row = rows(page).filter({ hasText: 'release-bot' })
  await expect(row).toContainText('Maintainer')
  await expect(row).toContainText('read_api')
  await bothThemes(page, 'group-tokens-list')
  await row.getByTestId('action-revoke').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click()
  await expect(page.getByTestId('resource-outcome')).toContainText('Token revoked.')
  const after = await fetch(`${burrow.serverUrl}/api/v4/groups/${group.id}`, { headers: { 'PRIVATE-TOKEN': token } })
  expect(after.status).toBe(401)
  // The group's list, like GitLab's, shows active tokens only: the revoked one leaves it.
  await expect(row).toHaveCount(0)
  expect(await api<unknown[]>('GET', `/groups/${group.id}/access_tokens`)).toEqual([])
})

test('Languages: the project’s languages with their shares, largest first', async ({ page }) => {
  const shares = await api<Record<string, number>>('GET', `/projects/${apiProject}/languages`)
  const expected = Object.entries(shares).sort((a, b) => b[1] - a[1])
  expect(expected.length).toBeGreaterThan(0)
  await open(page, `#/projects/languages?project=${apiProject}`)
  await expect(page.getByTestId('page-title')).toHaveText('Projects · Languages')
  await expect(rows(page)).toHaveCount(expected.length)
  const [language, share] = expected[0]
  await expect(rows(page).first()).toContainText(language)
  await expect(rows(page).first()).toContainText(`${share.toFixed(2)} %`)
  await bothThemes(page, 'languages-list')
})
