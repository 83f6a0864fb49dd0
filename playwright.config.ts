import { defineConfig } from '@playwright/test'

/**
 * End-to-end tests in Debian's Chromium (never `playwright install`): scripts/test.sh reads
 * the JSON report for its summary line. The browser path can be overridden with CHROMIUM_PATH.
 */
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 90_000,
  // One demo seed per run, copied into each demo launch (support/seed-template.ts).
  globalSetup: './test/e2e/support/global-setup.ts',
  forbidOnly: !!process.env.CI,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? 'test-results/playwright.json' }],
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-dev-shm-usage',
      ],
    },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
})
