import { defineStore } from 'pinia'
import { shallowRef } from 'vue'

/** Where a new issue starts: the account and project of the page it was asked for from, when there is one. */
export interface NewIssueRequest {
  readonly accountId?: string
  readonly projectId?: number
}

/**
 * The new issue form: one dialog mounted by the shell (`IssueCreateDialog`), opened from the
 * palette, the `c` key, and the buttons of lists and project pages.
 */
export const useCreateItemStore = defineStore('create-item', () => {
  const issue = shallowRef<NewIssueRequest | null>(null)

  function newIssue(request: NewIssueRequest = {}): void {
    issue.value = request
  }
  function close(): void {
    issue.value = null
  }

  return { issue, newIssue, close }
})
