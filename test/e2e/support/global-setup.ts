import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * The run's directory of shared demo seeds (support/seed-template.ts): made before the first
 * spec, removed after the last. Workers inherit `BURROW_E2E_SEED_DIR`, and the launch.ts
 * processes they start inherit it from them.
 */
export default function globalSetup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-e2e-seeds-'))
  process.env.BURROW_E2E_SEED_DIR = dir
  return () => rmSync(dir, { recursive: true, force: true })
}
