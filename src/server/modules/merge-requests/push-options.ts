/**
 * What a git push does to merge requests and says about them, as GitLab's post-receive does:
 * the `merge_request.*` push options create or update the merge request of each pushed branch
 * (GitLab's MergeRequests::PushOptionsHandlerService), and the pusher is shown where to open a
 * merge request for a new branch, or where the branch's open one is.
 */

import { callerFor, type Caller } from '../../platform/caller'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { logCommits } from '../../platform/git/commits'
import { ZERO_SHA } from '../../platform/git/git'
import { projectGitDir } from '../../platform/git/project-repo'
import type { GitPushContext } from '../../platform/git/push-listeners'
import type { PushOptions } from '../../platform/git/push-options'
import { ApiError } from '../../platform/http/errors'
import { findUserByIdOrUsername } from '../users'
import { enableAutoMerge } from './auto-merge'
import { isDraftTitle } from './entity'
import { availableMergeStrategy } from './merge-orchestration'
import { canReadMergeRequestsWith } from './policy'
import { openMergeRequestFromBranch, updateMergeRequestRow, userLinksOf, type MergeRequestRow } from './queries'
import { projectPaths } from './queries'
import { createMergeRequest, updateMergeRequest, type MergeRequestInput } from './service'

const ALERT_WIDTH = 72

/**
 * Push replier: applies the push's `merge_request.*` options to each pushed branch, then answers
 * with GitLab's lines: a warning box for options that could not be applied, and per branch the
 * link to its open merge request or, for a new branch, to the form that opens one.
 */
export async function mergeRequestPushReply(push: GitPushContext): Promise<string[]> {
  const caller = callerFor(push.ctx, push.user, { baseUrl: push.baseUrl })
  if (!canReadMergeRequestsWith(caller.perms, push.project)) return []
  const branches = push.updates.filter((u) => u.ref.startsWith('refs/heads/') && u.newSha !== ZERO_SHA)
  const errors: string[] = []
  if (push.options.hasNamespace('merge_request')) {
    for (const u of branches) {
      const error = await applyPushOptions(
        caller,
        push.project,
        push.user,
        u.ref.slice('refs/heads/'.length),
        push.options,
      )
      if (error !== null) errors.push(error)
    }
  }
  const lines = errors.length > 0 ? warningBox(push.options, errors) : []
  const projectUrl = `${caller.baseUrl}/${projectPaths(caller.db, [push.project.id]).get(push.project.id) ?? ''}`
  for (const u of branches) {
    const branch = u.ref.slice('refs/heads/'.length)
    if (branch === push.project.default_branch) continue
    const open = openMergeRequestFromBranch(caller.db, push.project.id, branch)
    if (open) lines.push('', `View merge request for ${branch}:`, `  ${projectUrl}/-/merge_requests/${open.iid}`, '')
    else if (u.oldSha === ZERO_SHA)
      lines.push(
        '',
        `To create a merge request for ${branch}, visit:`,
        `  ${projectUrl}/-/merge_requests/new?merge_request%5Bsource_branch%5D=${encodeURIComponent(branch)}`,
        '',
      )
  }
  return lines
}

/** Creates or updates the branch's merge request from the options; returns GitLab's error text, or null. */
async function applyPushOptions(
  caller: Caller,
  project: ProjectRow,
  user: UserRow,
  branch: string,
  options: PushOptions,
): Promise<string | null> {
  const existing = openMergeRequestFromBranch(caller.db, project.id, branch)
  if (!existing && !options.has('merge_request.create'))
    return `A merge_request.create push option is required to create a merge request for branch ${branch}`
  try {
    const mr = existing
      ? await updateMergeRequest(caller, project, existing, updateInput(caller, existing, options), user)
      : await createMergeRequest(
          caller,
          project,
          project,
          await createInput(caller, project, user, branch, options),
          user,
        )
    // GitLab's push option forces the deletion, as the merge request form's checkbox does.
    if (options.has('merge_request.remove_source_branch'))
      updateMergeRequestRow(caller.db, mr.id, { force_remove_source_branch: 1 }, false)
    if (options.has('merge_request.merge_when_pipeline_succeeds') || options.has('merge_request.auto_merge'))
      scheduleMerge(caller, project, mr, user)
    return null
  } catch (error) {
    if (error instanceof ApiError) return errorText(error)
    throw error
  }
}

/** Sets the merge request to merge when its running head pipeline succeeds, where the pusher could ask for it. */
function scheduleMerge(caller: Caller, project: ProjectRow, mr: MergeRequestRow, user: UserRow): void {
  if (availableMergeStrategy(caller, project, mr) === 'when_pipeline_succeeds') enableAutoMerge(caller.db, mr, user, {})
}

/** The fields every option set may carry, for a new merge request and an update alike. */
function commonInput(options: PushOptions): MergeRequestInput {
  return {
    target_branch: options.text('merge_request.target'),
    description: options.text('merge_request.description'),
  }
}

async function createInput(
  caller: Caller,
  project: ProjectRow,
  user: UserRow,
  branch: string,
  options: PushOptions,
): Promise<MergeRequestInput> {
  const common = commonInput(options)
  const target = common.target_branch ?? project.default_branch ?? ''
  const fromCommits = await titleFromCommits(projectGitDir(caller.ctx, project), target, branch)
  const unlabel = new Set(options.texts('merge_request.unlabel'))
  const unassign = new Set(userIds(caller, options.texts('merge_request.unassign')))
  return {
    ...common,
    source_branch: branch,
    target_branch: target,
    title: draftTitle(options.text('merge_request.title') ?? fromCommits.title, options),
    description: common.description ?? fromCommits.description,
    labels: options.texts('merge_request.label').filter((label) => !unlabel.has(label)),
    // GitLab assigns the merge request it opens for a push to the pusher.
    assignee_ids: [...new Set([user.id, ...userIds(caller, options.texts('merge_request.assign'))])].filter(
      (id) => !unassign.has(id),
    ),
  }
}

function updateInput(caller: Caller, mr: MergeRequestRow, options: PushOptions): MergeRequestInput {
  const title = options.text('merge_request.title')
  const assign = userIds(caller, options.texts('merge_request.assign'))
  const unassign = new Set(userIds(caller, options.texts('merge_request.unassign')))
  const assignees = (userLinksOf(caller.db, 'merge_request_assignees', [mr.id]).get(mr.id) ?? []).map((u) => u.id)
  const changesAssignees = assign.length > 0 || unassign.size > 0
  return {
    ...commonInput(options),
    title:
      title !== undefined || options.has('merge_request.draft') ? draftTitle(title ?? mr.title, options) : undefined,
    add_labels: options.texts('merge_request.label'),
    remove_labels: options.texts('merge_request.unlabel'),
    assignee_ids: changesAssignees
      ? [...new Set([...assignees, ...assign])].filter((id) => !unassign.has(id))
      : undefined,
  }
}

/** `merge_request.draft` marks the title a draft (once). */
function draftTitle(title: string, options: PushOptions): string {
  return options.has('merge_request.draft') && !isDraftTitle(title) ? `Draft: ${title}` : title
}

/**
 * GitLab's default title and description of a new merge request: a single commit's title and the
 * rest of its message; for several commits, the branch name made a sentence (`fix-login_page` →
 * `Fix login page`).
 */
async function titleFromCommits(
  gitDir: string,
  target: string,
  branch: string,
): Promise<{ readonly title: string; readonly description: string | undefined }> {
  const commits = await logCommits(gitDir, [
    '--max-count=2',
    `refs/heads/${branch}`,
    '--not',
    `refs/heads/${target}`,
    '--',
  ]).catch(() => [])
  if (commits.length === 1) {
    const body = commits[0].message.slice(commits[0].title.length).trim()
    return { title: commits[0].title, description: body === '' ? undefined : body }
  }
  const words = branch.replace(/[-_]+/g, ' ').trim()
  return { title: words.charAt(0).toUpperCase() + words.slice(1).toLowerCase(), description: undefined }
}

/** Users named by id or username; unknown ones are dropped, as GitLab drops them. */
function userIds(caller: Caller, names: readonly string[]): number[] {
  return names.flatMap((name) => {
    const user = findUserByIdOrUsername(caller.db, name)
    return user ? [user.id] : []
  })
}

/** An API refusal as one sentence: a message, a list of them, or `field message` pairs. */
function errorText(error: ApiError): string {
  const message = error.body?.message ?? error.body?.error
  if (typeof message === 'string') return message
  if (Array.isArray(message)) return message.map(String).join(', ')
  if (message && typeof message === 'object')
    return Object.entries(message)
      .map(([field, texts]) => `${field} ${Array.isArray(texts) ? texts.join(', ') : String(texts)}`)
      .join(', ')
  return error.message
}

/**
 * GitLab's alert box for push option errors: `WARNINGS:` and the options, each paragraph wrapped
 * at 72 columns and centred between rules of `=`.
 */
function warningBox(options: PushOptions, errors: readonly string[]): string[] {
  const given = options.raw.map((option) => `'${option}'`).join(' ')
  const text = `WARNINGS: Error encountered with push options ${given}: ${errors.join('\n\n')}`
  const rule = '='.repeat(ALERT_WIDTH)
  const body = text.split('\n').flatMap((paragraph) => wrapped(paragraph, ALERT_WIDTH).map(centred))
  return ['', rule, '', ...body, '', rule, '']
}

function wrapped(paragraph: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of paragraph.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  return line === '' ? [''] : [...lines, line]
}

function centred(line: string): string {
  return ' '.repeat(Math.max(0, Math.floor((ALERT_WIDTH - line.length) / 2))) + line
}
