import type { SecretBox } from '../../auth/encryption'
import type { Db } from '../connection'
import core from './0001-core'
import projectStars from './0002-project-stars'
import protectedBranches from './0003-protected-branches'
import labelsMilestones from './0005-labels-milestones'
import collaborationCore from './0006-collaboration-core'
import issues from './0007-issues'
import snippets from './0008-snippets'
import mergeRequests from './0009-merge-requests'
import ci from './0012-ci'
import epics from './0010-epics'
import environmentsOperations from './0013-environments-operations'
import importsGeoStorageMoves from './0015-imports-geo-storage-moves'
import alertsSecurity from './0014-alerts-security'
import seedRuns from './0016-seed-runs'
import deploymentMergeRequests from './0018-deployment-merge-requests'
import vulnerabilityOpened from './0019-vulnerability-opened'
import systemNotesResourceEvents from './0020-system-notes-resource-events'
import secretsAtRest from './0021-secrets-at-rest'
import autoincrementIds from './0022-autoincrement-ids'
import authLockout from './0023-auth-lockout'
import releases from './0030-releases'
import boards from './0031-boards'
import badges from './0032-badges'
import groupVariables from './0033-group-variables'
import protectedTags from './0034-protected-tags'
import diffNotePositions from './0040-diff-note-positions'
import mergeRequestDiffs from './0041-merge-request-diffs'
import draftNotesReviewerState from './0042-draft-notes-reviewer-state'
import commitStatuses from './0043-commit-statuses'
import issueLinks from './0044-issue-links'
import webhooks from './0045-webhooks'
import forkNetworks from './0046-fork-networks'
import pipelineSchedules from './0047-pipeline-schedules'
import commitNoteables from './0048-commit-noteables'
import forkMergeRequestsOutliveSource from './0049-fork-merge-requests-outlive-source'
import issueLinkNoteSources from './0050-issue-link-note-sources'
import suggestions from './0052-suggestions'

export interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: string
  /**
   * Rewrites rows after `sql`, in the same transaction, where SQL alone cannot (sealing secrets
   * with the instance key). `secrets` is null for a database opened without a data directory.
   */
  readonly data?: (db: Db, secrets: SecretBox | null) => void
  /**
   * Rebuilds tables (SQLite's create, copy, drop, rename): runs with foreign key enforcement off,
   * since dropping a table would otherwise delete its children through ON DELETE CASCADE, and
   * commits only when `PRAGMA foreign_key_check` then finds no broken reference it did not find
   * before.
   */
  readonly rebuildsTables?: boolean
}

/**
 * Every schema migration. Each runs once, in version order, whatever order they were merged in
 * (see `migrate`); never edit one that has shipped.
 */
export const migrations: readonly Migration[] = [
  core,
  projectStars,
  protectedBranches,
  labelsMilestones,
  collaborationCore,
  issues,
  snippets,
  mergeRequests,
  epics,
  ci,
  environmentsOperations,
  importsGeoStorageMoves,
  alertsSecurity,
  seedRuns,
  deploymentMergeRequests,
  vulnerabilityOpened,
  systemNotesResourceEvents,
  secretsAtRest,
  autoincrementIds,
  authLockout,
  releases,
  boards,
  badges,
  groupVariables,
  protectedTags,
  diffNotePositions,
  mergeRequestDiffs,
  draftNotesReviewerState,
  commitStatuses,
  issueLinks,
  webhooks,
  forkNetworks,
  pipelineSchedules,
  commitNoteables,
  forkMergeRequestsOutliveSource,
  issueLinkNoteSources,
  suggestions,
]
