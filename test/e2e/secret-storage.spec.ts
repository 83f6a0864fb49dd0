import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { SCREENSHOTS, watchCsp } from './support/burrow'
import { runCommand } from './support/page'
import { launchKeychainless, type KeychainlessBurrow } from './support/keychainless'

// A machine with no OS keychain (support/launch-keychainless.ts): adding an account says that
// nothing was stored and offers the encrypted file; the account is added once the user opts
// in. Burrow started again asks for the passphrase: a wrong one is refused, Skip leaves the
// account locked (sync and a comment wait, marked locked), the right one brings it back and
// the comment reaches the server. Serial: each test continues the previous one's state.
test.describe.configure({ mode: 'serial' })

const PASSPHRASE = 'kestrel anemometer lantern tide'

let burrow: KeychainlessBurrow
let pageUrl: string
let violations: string[] = []

test.beforeAll(async () => {
  burrow = await launchKeychainless()
  pageUrl = burrow.pageUrl
})

test.afterAll(async () => {
  await burrow?.stop()
})

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  violations = watchCsp(page)
})

test.afterEach(() => {
  expect(violations, 'Content-Security-Policy violations').toEqual([])
})

const shot = (page: Page, name: string, fullPage: boolean) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: 'disabled', fullPage })

/**
 * Screenshots of the page as it is, in the light and then the dark theme (the OS setting, which
 * the app follows); `fullPage` for the first-run screen, whose form runs below the fold.
 */
async function shotBoth(page: Page, name: string, options: { readonly fullPage?: boolean } = {}): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  await shot(page, `${name}-light`, options.fullPage === true)
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await shot(page, `${name}-dark`, options.fullPage === true)
  await page.emulateMedia({ colorScheme: 'light' })
}

test('without a keychain, adding an account says nothing was stored and offers the encrypted file', async ({
  page,
}) => {
  await page.goto(pageUrl)
  await expect(page.getByRole('heading', { name: 'Welcome to Burrow' })).toBeVisible()
  await page.getByTestId('token').locator('input').fill(burrow.user.token)
  await page.getByTestId('account-add-submit').click()
  const panel = page.getByTestId('keychain-missing')
  await expect(panel).toContainText('No keychain to keep this sign-in')
  await expect(panel).toContainText('Nothing was stored.')
  await expect(page.getByTestId('keychain-reason')).toContainText('no Secret Service answers on the session bus')
  await expect(page.getByTestId('account-add-submit')).toHaveCount(0)
  await expect(panel).toBeInViewport()
  await shotBoth(page, 'secret-storage-no-keychain', { fullPage: true })

  await page.getByTestId('use-encrypted-file').click()
  await expect(page.getByTestId('passphrase-warning')).toContainText('cannot recover a forgotten passphrase')
  await page.getByTestId('passphrase').locator('input').fill('password1')
  await expect(page.getByTestId('passphrase-strength')).toHaveAttribute('data-level', 'weak')
  await page.getByTestId('passphrase').locator('input').fill(PASSPHRASE)
  await expect(page.getByTestId('passphrase-strength')).toHaveAttribute('data-level', 'strong')
  await page.getByTestId('passphrase-confirm').locator('input').fill(`${PASSPHRASE} `)
  await expect(page.getByText('The two passphrases differ.')).toBeVisible()
  await expect(page.getByTestId('passphrase-submit')).toBeDisabled()
  await page.getByTestId('passphrase-confirm').locator('input').fill(PASSPHRASE)
  await expect(page.getByTestId('passphrase-submit')).toBeEnabled()
  await shotBoth(page, 'secret-storage-choose-passphrase', { fullPage: true })
})

test('opting into the encrypted file adds the account without asking again', async ({ page }) => {
  await page.goto(pageUrl)
  await page.getByTestId('token').locator('input').fill(burrow.user.token)
  await page.getByTestId('account-add-submit').click()
  await page.getByTestId('use-encrypted-file').click()
  await page.getByTestId('passphrase').locator('input').fill(PASSPHRASE)
  await page.getByTestId('passphrase-confirm').locator('input').fill(PASSPHRASE)
  await page.getByTestId('passphrase-submit').click()
  await expect(page.getByTestId('page-title')).toHaveText('Home')
  await expect(page.getByTestId('account-current')).toHaveText(burrow.user.name)
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 60_000 })

  await runCommand(page, 'manage accounts')
  await expect(page.getByTestId('page-title')).toHaveText('Accounts')
  const storage = page.getByTestId('secret-storage')
  await expect(storage).toHaveAttribute('data-state', 'file-unlocked')
  await expect(storage).toContainText('Sign-ins are saved in an encrypted file')
  await expect(page.locator('[data-account="ada"]')).toBeVisible()
  await shotBoth(page, 'secret-storage-accounts-file')
})

test('started again, Burrow asks for the passphrase: a wrong one is refused, Skip leaves the account locked', async ({
  page,
}) => {
  pageUrl = await burrow.relaunch()
  await page.goto(pageUrl)
  const dialog = page.getByTestId('unlock-dialog')
  await expect(dialog).toContainText('Unlock your sign-ins')
  await expect(dialog).toContainText('Ada Lovelace (@ada)')
  await expect(page.getByTestId('passphrase').locator('input')).toBeFocused()
  await shotBoth(page, 'secret-storage-unlock')

  await page.getByTestId('passphrase').locator('input').fill('kestrel anemometer lantern')
  await page.getByTestId('passphrase').locator('input').press('Enter')
  await expect(page.getByTestId('passphrase-error')).toContainText('Wrong passphrase')
  await expect(page.getByTestId('passphrase-error')).toContainText('wrong-passphrase')
  await shotBoth(page, 'secret-storage-unlock-wrong')

  await page.getByTestId('passphrase-cancel').click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByTestId('locked-banner')).toContainText(
    'Ada Lovelace: nothing syncs or is sent until the encrypted sign-in file is unlocked',
  )
  await expect(page.getByTestId('status-locked')).toHaveText(`Locked: ${new URL(burrow.serverUrl).host}`)
  await expect(page.getByTestId('account-switcher')).toContainText('Locked')
  await expect(page.getByText('Sync failed')).toHaveCount(0)
  await shotBoth(page, 'secret-storage-skipped')
})

test('while locked, the synced issue is readable and a comment waits in the outbox marked locked', async ({ page }) => {
  await page.goto(pageUrl)
  await page.getByTestId('passphrase-cancel').click()
  await runCommand(page, 'manage accounts')
  await expect(page.locator('[data-account="ada"]').getByTestId('account-locked')).toHaveText('Locked')
  await expect(page.getByTestId('secret-storage')).toHaveAttribute('data-state', 'file-locked')
  await shotBoth(page, 'secret-storage-accounts-locked')

  await runCommand(page, 'go to issues')
  await page.locator('.work-item-row__title', { hasText: burrow.project.issueTitle }).click()
  await expect(page.getByTestId('issue-title')).toHaveText(burrow.project.issueTitle)
  await page
    .getByTestId('comment-body')
    .locator('textarea')
    .fill('Checked the anemometer while the sign-in file was locked.')
  await page.getByTestId('comment-submit').click()
  const note = page.getByTestId('note').filter({ hasText: 'while the sign-in file was locked' })
  await expect(note.getByTestId('pending-marker')).toBeVisible()
  await expect(page.getByTestId('status-outbox')).toContainText('(1 locked)')
  await shotBoth(page, 'secret-storage-issue-locked')

  await page.getByTestId('status-outbox').click()
  const entry = page.locator('[data-section="queued"]').getByTestId('outbox-entry')
  await expect(entry.getByTestId('outbox-locked')).toHaveText('locked')
  await expect(entry).toContainText('Waits until the encrypted sign-in file is unlocked')
  await shotBoth(page, 'secret-storage-outbox-locked')
  expect(await burrow.comments()).toEqual([])
})

test('the right passphrase unlocks: the account syncs again and the comment reaches the server', async ({ page }) => {
  await page.goto(pageUrl)
  await page.getByTestId('passphrase-cancel').click()
  await page.getByTestId('locked-banner-unlock').click()
  await page.getByTestId('passphrase').locator('input').fill(PASSPHRASE)
  await page.getByTestId('passphrase-submit').click()
  await expect(page.getByTestId('unlock-dialog')).toHaveCount(0)
  await expect(page.getByTestId('locked-banner')).toHaveCount(0)
  await expect(page.getByTestId('status-locked')).toHaveCount(0)
  await expect(page.getByTestId('status-sync')).toHaveText(/Synced/, { timeout: 60_000 })
  await expect(page.getByTestId('status-outbox')).toHaveCount(0, { timeout: 30_000 })
  await expect
    .poll(() => burrow.comments(), { timeout: 30_000 })
    .toEqual(['Checked the anemometer while the sign-in file was locked.'])

  await runCommand(page, 'manage accounts')
  await expect(page.getByTestId('secret-storage')).toHaveAttribute('data-state', 'file-unlocked')
  const ada = page.locator('[data-account="ada"]')
  await expect(ada.getByTestId('account-locked')).toHaveCount(0)
  await ada.getByRole('button', { name: 'Check sign-in' }).click()
  await expect(ada).toContainText('Signed in')
  await shotBoth(page, 'secret-storage-unlocked')
})
