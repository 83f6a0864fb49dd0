export { isDraftTitle, withDraft } from '../../shared/draft-titles'

/**
 * What GitLab proposes for new work, as pure functions: the branch an issue's work goes on, and
 * the title and description of a merge request from a branch.
 */

/** GitLab's longest issue branch name (`Issue#to_branch_name` cuts there). */
const MAX_BRANCH_NAME = 100

/** Rails' `parameterize`: lower case ASCII words joined by `-` (accents dropped, anything else a separator). */
export function parameterize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
}

/**
 * The branch GitLab names for an issue's work: `12-title-words` (at most 100 characters), or
 * `12-confidential-issue` for a confidential issue, whose title must not leak into the repository.
 */
export function issueBranchName(issue: {
  readonly iid: number
  readonly title: string
  readonly confidential?: boolean
}): string {
  if (issue.confidential === true) return `${issue.iid}-confidential-issue`
  const words = parameterize(issue.title)
  const name = words === '' ? `${issue.iid}` : `${issue.iid}-${words}`
  return name.slice(0, MAX_BRANCH_NAME).replace(/-+$/, '')
}

/** The issue a branch was made for, by GitLab's naming (`12-…`), or null. */
export function issueIidOfBranch(branch: string): number | null {
  const match = /^(\d+)-/.exec(branch)
  return match === null ? null : Number(match[1])
}

/** `feature/offline-maps_v2` → `Feature/offline maps v2`, as GitLab titles a branch of several commits. */
function humanize(branch: string): string {
  const words = branch.replace(/[-_]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * GitLab's proposal for a new merge request: for a branch of one commit, that commit's title and
 * the rest of its message; otherwise the branch name made readable. A branch made for an issue
 * (`12-…`, or `issue` given) becomes `Draft: Resolve "<issue title>"` when the issue is known,
 * and its description closes the issue (`Closes #12`).
 */
export function mergeRequestProposal(options: {
  readonly sourceBranch: string
  /** The branch's commits not in the target, newest first. */
  readonly commits: readonly { readonly title: string; readonly message: string }[]
  readonly issue?: { readonly iid: number; readonly title: string } | null
}): { readonly title: string; readonly description: string } {
  const issueIid = options.issue?.iid ?? issueIidOfBranch(options.sourceBranch)
  const closes = issueIid === null ? '' : `Closes #${issueIid}`
  if (options.issue !== undefined && options.issue !== null)
    return { title: `Draft: Resolve "${options.issue.title}"`, description: closes }
  if (options.commits.length === 1) {
    const [commit] = options.commits
    const body = commit.message.slice(commit.message.indexOf('\n') + 1).trim()
    const onlyTitle = !commit.message.trim().includes('\n')
    return {
      title: commit.title,
      description: [onlyTitle ? '' : body, closes].filter((part) => part !== '').join('\n\n'),
    }
  }
  return { title: humanize(options.sourceBranch), description: closes }
}
