import type { Suggestion } from '../../../shared/api/suggestion'
import type { SuggestionRow } from './queries'

/** GitLab's Suggestion entity of a stored row; whether it may be applied now is the service's answer. */
export function suggestionEntity(row: SuggestionRow, appliable: boolean): Suggestion {
  return {
    id: row.id,
    from_line: row.from_line,
    to_line: row.to_line,
    appliable,
    applied: row.applied === 1,
    from_content: row.from_content,
    to_content: row.to_content,
    commit_id: row.commit_id,
  }
}
