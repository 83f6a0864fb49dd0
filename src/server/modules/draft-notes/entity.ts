import type { DraftNote, DraftNotePosition } from '../../../shared/api/draft-note'
import type { DraftNoteRow } from './queries'

/** The position GitLab shows on a draft that is not on a diff line: every field null. */
const NO_POSITION: DraftNotePosition = {
  base_sha: null,
  start_sha: null,
  head_sha: null,
  old_path: null,
  new_path: null,
  position_type: 'text',
  old_line: null,
  new_line: null,
  line_range: null,
}

/** GitLab's DraftNote entity. */
export function draftNoteEntity(row: DraftNoteRow): DraftNote {
  return {
    id: row.id,
    author_id: row.author_id,
    merge_request_id: row.merge_request_id,
    resolve_discussion: row.resolve_discussion === 1,
    discussion_id: row.discussion_id,
    note: row.note,
    commit_id: row.commit_id,
    line_code: row.line_code,
    position: row.position === null ? NO_POSITION : (JSON.parse(row.position) as DraftNotePosition),
  }
}
