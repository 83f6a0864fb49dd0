import type { Db } from '../connection'

/**
 * The issue link notes written before links recorded their source ("marked this issue as related
 * to #4", "removed the relation with group/project#1") get the other issue as their source, so the
 * notes lists hide them from whoever may not read it, as they hide the notes written since.
 *
 * A link or unlink writes its two notes in one transaction, one on each issue, each naming the
 * other: the other issue is the issue of the note next to it (id ± 1) with the same action and
 * author. That neighbour counts only if the note names its issue as a reference written from the
 * note's project reads today (`#4`, `project#4`, `group/project#4`), which also tells the two
 * neighbours apart when both are link notes. A note whose other issue is gone (its notes go with
 * it) or whose project has moved or been renamed since keeps no source: it stays visible.
 */
const LINK_NOTE = /^(?:marked this issue as (?:related to|blocking|blocked by)|removed the relation with) (\S+)$/

interface LinkNote {
  readonly id: number
  readonly issueId: number
  readonly authorId: number
  readonly action: string
  readonly body: string
  readonly projectId: number
}

interface IssuePlace {
  readonly iid: number
  readonly projectId: number
  readonly namespaceId: number
  readonly path: string
  readonly fullPath: string
}

export default {
  version: 50,
  name: 'issue-link-note-sources',
  sql: '',
  data(db: Db): void {
    const notes = db
      .prepare(
        `SELECT n.id, n.noteable_id AS issueId, n.author_id AS authorId, m.action, n.body, i.project_id AS projectId
           FROM notes n
           JOIN system_note_metadata m ON m.note_id = n.id
           JOIN issues i ON i.id = n.noteable_id
          WHERE n.noteable_type = 'Issue' AND n.system = 1 AND m.action IN ('relate', 'unrelate')`,
      )
      .all() as LinkNote[]
    const byId = new Map(notes.map((n) => [n.id, n]))
    const sourceless = new Set(
      (
        db
          .prepare(
            `SELECT note_id FROM system_note_metadata
              WHERE action IN ('relate', 'unrelate') AND source_id IS NULL`,
          )
          .all() as { note_id: number }[]
      ).map((r) => r.note_id),
    )
    const placeOf = db.prepare(
      `SELECT i.iid, p.id AS projectId, p.namespace_id AS namespaceId, p.path, ns.full_path || '/' || p.path AS fullPath
         FROM issues i JOIN projects p ON p.id = i.project_id JOIN namespaces ns ON ns.id = p.namespace_id
        WHERE i.id = ?`,
    )
    const namespaceOf = db.prepare('SELECT namespace_id AS namespaceId FROM projects WHERE id = ?')
    const setSource = db.prepare(
      "UPDATE system_note_metadata SET source_type = 'Issue', source_id = ? WHERE note_id = ? AND source_id IS NULL",
    )
    for (const note of notes) {
      if (!sourceless.has(note.id)) continue
      const named = LINK_NOTE.exec(note.body)?.[1]
      if (!named) continue
      const from = namespaceOf.get(note.projectId) as { namespaceId: number } | undefined
      const others = [byId.get(note.id - 1), byId.get(note.id + 1)].filter(
        (n): n is LinkNote =>
          n !== undefined && n.action === note.action && n.authorId === note.authorId && n.issueId !== note.issueId,
      )
      const matches = new Set(
        others
          .filter((other) => {
            const place = placeOf.get(other.issueId) as IssuePlace | undefined
            return place !== undefined && referenceFrom(place, note.projectId, from?.namespaceId) === named
          })
          .map((other) => other.issueId),
      )
      if (matches.size === 1) setSource.run([...matches][0], note.id)
    }
  },
}

/** An issue's reference written from a project, as the link notes were written: `#4`, `project#4`, `group/project#4`. */
function referenceFrom(place: IssuePlace, projectId: number, namespaceId: number | undefined): string {
  if (place.projectId === projectId) return `#${place.iid}`
  return `${place.namespaceId === namespaceId ? place.path : place.fullPath}#${place.iid}`
}
