/**
 * What the end-to-end specs do alike on a page and beside it: screenshots once transitions have
 * settled, commands through the palette, and the REST API straight to the server.
 */
import { join } from 'node:path'
import { expect, type Page } from '@playwright/test'
import { SCREENSHOTS } from './burrow'

/** A screenshot once naive-ui's modal and popover transitions have finished (a shot taken mid-way shows a dimmed page). */
export async function shot(page: Page, name: string): Promise<void> {
  await expect(page.locator('[class*="-transition-enter-active"], [class*="-transition-leave-active"]')).toHaveCount(0)
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: 'disabled' })
}

/** Opens Burrow's page at `pageUrl` and, once the shell is up, goes to the route `hash`. */
export async function openAt(page: Page, pageUrl: string, hash: string): Promise<void> {
  await page.goto(pageUrl)
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.evaluate((h) => (window.location.hash = h), hash)
}

/** Screenshots of what is on screen in the light and the dark theme (the OS's, emulated), back to light after. */
export async function bothThemes(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    await shot(page, `${name}-${theme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/** Runs `text` in the command palette (Ctrl+K, the first match, Enter). */
export async function runCommand(page: Page, text: string): Promise<void> {
  // Keys typed before the shell has mounted would go nowhere.
  await expect(page.getByTestId('page-title')).toBeVisible()
  await page.keyboard.press('Control+k')
  await page.getByTestId('command-palette-input').locator('input').fill(text)
  await page.keyboard.press('Enter')
}

/** The REST API of `serverUrl()` with `token()` (read at each call: the launch happens in beforeAll), straight to the server, not through the proxy. */
export function restApi(serverUrl: () => string, token: () => string) {
  return async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${serverUrl()}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as T
  }
}
