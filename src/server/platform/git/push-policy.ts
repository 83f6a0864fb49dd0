import type { Permissions } from '../auth/permissions'
import type { ProjectRow, UserRow } from '../db/rows'
import type { RefUpdate } from './push-listeners'

/**
 * Decides whether a push may land; returns the refusal message, or null to accept. Modules write
 * them (protected branches and tags) and the smart HTTP plugin runs them, so the type lives here.
 */
export type PushPolicy = (
  project: ProjectRow,
  user: UserRow,
  perms: Permissions,
  updates: readonly RefUpdate[],
) => string | null

/** Several push policies as one: each in turn, the first refusal wins. */
export function firstRefusal(...policies: readonly PushPolicy[]): PushPolicy {
  return (project, user, perms, updates) => {
    for (const policy of policies) {
      const refusal = policy(project, user, perms, updates)
      if (refusal !== null) return refusal
    }
    return null
  }
}
