import { defineStore } from 'pinia'
import { shallowRef } from 'vue'

/** Where a new issue starts: the account and project of the page it was asked for from, when there is one. */
export interface NewIssueRequest {
  readonly accountId?: string
  readonly projectId?: number
}

/**
 * Where a new merge request starts: the account, and the project, branch or issue it is for when
 * known. Without a project the form asks for one; without an account too (asked from All accounts),
 * starting from the selected account.
 */
export interface NewMergeRequestRequest {
  readonly accountId?: string
  readonly projectId?: number
  readonly sourceBranch?: string
  /** The issue the work is for: its branch is proposed (and made first when missing), its title and `Closes #n` used. */
  readonly issue?: { readonly iid: number; readonly title: string; readonly confidential?: boolean }
}

/**
 * The new issue and merge request forms: one dialog each, mounted by the shell
 * (`IssueCreateDialog`, `MergeRequestCreateDialog`), opened from the palette, the `c` key, and
 * the buttons of lists, project pages and issues.
 */
export const useCreateItemStore = defineStore('create-item', () => {
  const issue = shallowRef<NewIssueRequest | null>(null)
  const mergeRequest = shallowRef<NewMergeRequestRequest | null>(null)

  function newIssue(request: NewIssueRequest = {}): void {
    issue.value = request
  }
  function newMergeRequest(request: NewMergeRequestRequest): void {
    mergeRequest.value = request
  }
  function close(): void {
    issue.value = null
    mergeRequest.value = null
  }

  return { issue, mergeRequest, newIssue, newMergeRequest, close }
})
