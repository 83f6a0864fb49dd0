import type { LabelBasic } from '../../../shared/api/common'
import type { Label } from '../../../shared/api/label'
import type { LabelCounts, LabelRow } from './queries'
import { textColorFor } from './colors'
import { renderSingleLine } from '../../platform/text/markdown'

export interface LabelPresentation {
  readonly subscribed: boolean
  /** Counts to show; omitted (no count keys) when the list was asked without `with_counts`. */
  readonly counts?: LabelCounts
  /** True when shown under a project: adds `priority` and `is_project_label`. */
  readonly forProject?: boolean
}

/** GitLab's Label entity for the caller (group labels; project labels add `priority` and `is_project_label`). */
export function labelEntity(row: LabelRow, p: LabelPresentation): Label {
  return {
    id: row.id,
    name: row.title,
    color: row.color,
    text_color: textColorFor(row.color),
    description: row.description,
    description_html: renderSingleLine(row.description),
    ...(p.counts ?? {}),
    subscribed: p.subscribed,
    ...(p.forProject
      ? { priority: row.project_id !== null ? row.priority : null, is_project_label: row.project_id !== null }
      : {}),
  }
}

/** The columns a LabelBasic shows. */
export type LabelBasicRow = Pick<LabelRow, 'id' | 'title' | 'color' | 'description'>

/** A label as `with_labels_details` shows it on issues, merge requests and epics (GitLab's LabelBasic). */
export function labelBasicEntity(l: LabelBasicRow): LabelBasic {
  return {
    id: l.id,
    name: l.title,
    color: l.color,
    description: l.description,
    description_html: renderSingleLine(l.description),
    text_color: textColorFor(l.color),
  }
}
