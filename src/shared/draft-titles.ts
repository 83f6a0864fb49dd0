/** GitLab's draft title prefixes (`Draft:`, `[Draft]`, `(Draft)`, `Draft - `), any case. */
const DRAFT_PREFIX = /^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s)\s*/i

/** Whether a merge request title marks it a draft, as GitLab reads it. */
export const isDraftTitle = (title: string): boolean => DRAFT_PREFIX.test(title)

/** The title with GitLab's `Draft: ` prefix added, or every draft prefix taken off. */
export function withDraft(title: string, draft: boolean): string {
  const bare = title.replace(DRAFT_PREFIX, '')
  return draft ? `Draft: ${bare}` : bare
}
