import type { ProtectedBranch as ProtectedBranchEntity } from '../../../shared/api/protected-branch'
import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ServerContext } from '../../platform/context'
import type { Db } from '../../platform/db/connection'
import {
  deleteProtectedBranch,
  findProtectedBranch,
  grantHolderNames,
  insertProtectedBranch,
  listProtectedBranches,
  updateProtectedBranch,
  type AccessKind,
  type NewProtectedBranch,
  type ProtectedBranch,
  type ProtectedBranchChanges,
} from './protected-queries'
import { protectedBranchEntity } from './protected-entity'
import type { Caller } from '../../platform/caller'
import { conflict } from '../../platform/http/errors'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { ZERO_SHA } from '../../platform/git/git'
import { projectGitDir } from '../../platform/git/project-repo'
import type { PushPolicy } from '../../platform/git/push-policy'
import type { RefUpdate } from '../../platform/git/push-listeners'

/** GitLab's refusal texts (Gitlab::Checks::BranchCheck), shown to git clients as `remote:` lines. */
export const PUSH_MESSAGES = {
  push: 'You are not allowed to push code to protected branches on this project.',
  create: 'You are not allowed to create protected branches on this project.',
  forcePush: 'You are not allowed to force push code to a protected branch on this project.',
  deleteProtected: 'You can only delete protected branches using the web interface.',
  deleteDefault: 'The default branch of a project cannot be deleted.',
} as const

function wildcardRegex(pattern: string): RegExp {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*?')
  return new RegExp(`^${source}$`)
}

/** True when a protected-branch rule (an exact name or a `*` wildcard) covers `branch`. */
export function ruleMatches(rule: Pick<ProtectedBranch, 'name'>, branch: string): boolean {
  if (!rule.name.includes('*')) return rule.name === branch
  return wildcardRegex(rule.name).test(branch)
}

/** The rules of a project that cover a branch. */
export function rulesFor(rules: readonly ProtectedBranch[], branch: string): ProtectedBranch[] {
  return rules.filter((r) => ruleMatches(r, branch))
}

/**
 * True when the caller passes one of the `kind` access levels of the matching rules, as
 * GitLab's ProtectedRefAccess: a role (0 nobody, 60 administrators only), a user, or a group.
 */
export function hasAccess(
  perms: Permissions,
  project: Pick<ProjectRow, 'id'>,
  rules: readonly ProtectedBranch[],
  kind: AccessKind,
): boolean {
  const user = perms.user
  if (!user) return false
  for (const rule of rules) {
    for (const a of rule.access) {
      if (a.kind !== kind) continue
      if (a.access_level !== null) {
        if (a.access_level === AccessLevel.NO_ACCESS) continue
        if (a.access_level === AccessLevel.ADMIN ? perms.isAdmin : perms.canInProject(project, a.access_level))
          return true
      } else if (a.user_id !== null) {
        if (a.user_id === user.id && perms.canInProject(project, AccessLevel.DEVELOPER)) return true
      } else if (a.group_id !== null) {
        if (perms.groupAccess(a.group_id) > AccessLevel.NO_ACCESS) return true
      }
    }
  }
  return false
}

/** True when the caller may push to `branch` (Developer on unprotected branches, the rules otherwise). */
export function canPushToBranch(
  perms: Permissions,
  project: Pick<ProjectRow, 'id'>,
  rules: readonly ProtectedBranch[],
  branch: string,
): boolean {
  const matching = rulesFor(rules, branch)
  if (matching.length === 0) return perms.canInProject(project, AccessLevel.DEVELOPER)
  return hasAccess(perms, project, matching, 'push')
}

/** What a ref update does to a branch. */
export type RefOperation = 'create' | 'update' | 'delete'

/** The operation a pushed ref update performs. */
export function operationOf(update: RefUpdate): RefOperation {
  if (update.newSha === ZERO_SHA) return 'delete'
  return update.oldSha === ZERO_SHA ? 'create' : 'update'
}

/**
 * Why this caller may not perform `op` on `branch`, or null. Force pushes are not judged here
 * (the pushed commits are not in the repository before receive-pack runs): see the update hook.
 */
export function refusal(
  perms: Permissions,
  project: Pick<ProjectRow, 'id' | 'default_branch'>,
  rules: readonly ProtectedBranch[],
  branch: string,
  op: RefOperation,
  via: 'git' | 'api',
): string | null {
  if (op === 'delete' && branch === project.default_branch) return PUSH_MESSAGES.deleteDefault
  const matching = rulesFor(rules, branch)
  if (matching.length === 0) return null
  if (op === 'delete') {
    // GitLab lets Maintainers delete protected branches through the web and the API only.
    if (via === 'git') return PUSH_MESSAGES.deleteProtected
    return perms.canInProject(project, AccessLevel.MAINTAINER) ? null : PUSH_MESSAGES.deleteProtected
  }
  if (hasAccess(perms, project, matching, 'push')) return null
  return op === 'create' ? PUSH_MESSAGES.create : PUSH_MESSAGES.push
}

const NO_FORCE_FILE = 'burrow-no-force-push'

/**
 * Per-ref hook refusing non-fast-forward updates of branches listed (as patterns) in the
 * repository's `burrow-no-force-push` file; it runs after the pack is received, when
 * `merge-base --is-ancestor` can see the pushed commits.
 */
const UPDATE_HOOK = `#!/bin/sh
ref="$1"; old="$2"; new="$3"
rules="$GIT_DIR/${NO_FORCE_FILE}"
[ -f "$rules" ] || exit 0
case "$ref" in refs/heads/*) ;; *) exit 0 ;; esac
case "$old" in *[!0]*) ;; *) exit 0 ;; esac
case "$new" in *[!0]*) ;; *) exit 0 ;; esac
branch=\${ref#refs/heads/}
while IFS= read -r pattern; do
  [ -n "$pattern" ] || continue
  case "$branch" in
    $pattern)
      if ! git merge-base --is-ancestor "$old" "$new"; then
        echo "GitLab: ${PUSH_MESSAGES.forcePush}" >&2
        exit 1
      fi ;;
  esac
done < "$rules"
exit 0
`

function installUpdateHook(hooksDir: string): void {
  mkdirSync(hooksDir, { recursive: true })
  const hook = join(hooksDir, 'update')
  writeFileSync(hook, UPDATE_HOOK)
  chmodSync(hook, 0o755)
}

/** Writes the force-push patterns the update hook reads (atomically: pushes may run meanwhile). */
export function writeForcePushRules(gitDir: string, rules: readonly ProtectedBranch[]): void {
  if (!existsSync(gitDir)) return
  const text = rules
    .filter((r) => r.allow_force_push === 0)
    .map((r) => `${r.name}\n`)
    .join('')
  const tmp = join(gitDir, `${NO_FORCE_FILE}.${process.pid}.tmp`)
  writeFileSync(tmp, text)
  renameSync(tmp, join(gitDir, NO_FORCE_FILE))
}

/**
 * The smart HTTP push policy: protected branches refuse pushes, creations and deletions by
 * roles their rules exclude, with GitLab's messages; force pushes are refused by the update
 * hook this installs in `hooksDir`, from rules written next to the repository on each push.
 */
export function protectedBranchPushPolicy(ctx: ServerContext, hooksDir: string): PushPolicy {
  installUpdateHook(hooksDir)
  return (project: ProjectRow, _user: UserRow, perms: Permissions, updates: readonly RefUpdate[]): string | null => {
    const rules = listProtectedBranches(ctx.db, project.id)
    writeForcePushRules(projectGitDir(ctx, project), rules)
    for (const u of updates) {
      if (!u.ref.startsWith('refs/heads/')) continue
      const message = refusal(perms, project, rules, u.ref.slice('refs/heads/'.length), operationOf(u), 'git')
      if (message) return `GitLab: ${message}`
    }
    return null
  }
}

/** Protects a new project's default branch as GitLab's default does: Maintainers push and merge. */
export function protectDefaultBranch(db: Db, project: ProjectRow, branch: string): void {
  insertProtectedBranch(db, {
    projectId: project.id,
    name: branch,
    allowForcePush: false,
    codeOwnerApprovalRequired: false,
    access: {
      push: [{ access_level: AccessLevel.MAINTAINER }],
      merge: [{ access_level: AccessLevel.MAINTAINER }],
      unprotect: [],
    },
  })
}

/** Keeps the force-push rules the git update hook reads in step with the table. */
function syncHookRules(ctx: ServerContext, project: ProjectRow): void {
  writeForcePushRules(projectGitDir(ctx, project), listProtectedBranches(ctx.db, project.id))
}

/** A protected branch rule as serialized, with the names of the users and groups it grants. */
export function presentProtectedBranches(db: Db, rules: readonly ProtectedBranch[]): ProtectedBranchEntity[] {
  const names = grantHolderNames(
    db,
    rules.flatMap((r) => r.access),
  )
  return rules.map((r) => protectedBranchEntity(r, names))
}

/** Protects a branch name or pattern (GitLab's ProtectedBranches::CreateService); 409 when it already is. */
export function protectBranch(
  caller: Caller,
  project: ProjectRow,
  input: Omit<NewProtectedBranch, 'projectId'>,
): ProtectedBranch {
  if (findProtectedBranch(caller.db, project.id, input.name))
    throw conflict(`Protected branch '${input.name}' already exists`)
  const rule = insertProtectedBranch(caller.db, { ...input, projectId: project.id })
  syncHookRules(caller.ctx, project)
  return rule
}

/** Changes a rule's flags and grants (GitLab's ProtectedBranches::UpdateService). */
export function updateBranchProtection(
  caller: Caller,
  project: ProjectRow,
  rule: ProtectedBranch,
  changes: ProtectedBranchChanges,
): ProtectedBranch {
  const updated = updateProtectedBranch(caller.db, rule, changes)
  syncHookRules(caller.ctx, project)
  return updated
}

/** Removes a rule (GitLab's ProtectedBranches::DestroyService). */
export function unprotectBranch(caller: Caller, project: ProjectRow, rule: ProtectedBranch): void {
  deleteProtectedBranch(caller.db, rule.id)
  syncHookRules(caller.ctx, project)
}
