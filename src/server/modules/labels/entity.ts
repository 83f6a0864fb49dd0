import type { LabelCounts, LabelRow } from './queries'
import { textColorFor } from './colors'
import { renderSingleLine } from '../../platform/text/markdown'

/** GitLab's Label entity (group labels); project labels add `priority` and `is_project_label`. */
export interface LabelEntity {
  readonly id: number
  readonly name: string
  readonly color: string
  readonly text_color: string
  readonly description: string | null
  readonly description_html: string | null
  readonly open_issues_count?: number
  readonly closed_issues_count?: number
  readonly open_merge_requests_count?: number
  readonly subscribed: boolean
  readonly priority?: number | null
  readonly is_project_label?: boolean
}

export interface LabelPresentation {
  readonly subscribed: boolean
  /** Counts to show; omitted (no count keys) when the list was asked without `with_counts`. */
  readonly counts?: LabelCounts
  /** True when shown under a project: adds `priority` and `is_project_label`. */
  readonly forProject?: boolean
}

/** Serializes a label for the caller. */
export function labelEntity(row: LabelRow, p: LabelPresentation): LabelEntity {
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
