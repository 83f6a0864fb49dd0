/**
 * GitLab's resource label, milestone and state events (`…/resource_{label,milestone,state}_events`)
 * as activity entries: who added or removed which labels, changed the milestone, closed,
 * reopened or merged. GitLab records these instead of system notes, so the activity reads them
 * beside the notes, one line each, as its web UI does.
 */

import type { LabelBasic } from '../../shared/api/common'
import type { ResourceLabelEvent, ResourceMilestoneEvent, ResourceStateEvent } from '../../shared/api/event'
import type { Milestone } from '../../shared/api/milestone'
import type { UserRef } from '../../shared/api/user'

// The parts of the wire model's resource events (src/shared/api/event.ts) the activity reads.

export type EventUser = Readonly<Pick<UserRef, 'name' | 'username'>>

/** GitLab's LabelBasic; null in the event once the label was deleted. */
export type EventLabel = Readonly<
  Pick<LabelBasic, 'id' | 'name' | 'color'> & Partial<Pick<LabelBasic, 'text_color' | 'description'>>
>

interface EventCommon {
  readonly user: EventUser | null
}

export type LabelEvent = EventCommon &
  Readonly<Pick<ResourceLabelEvent, 'id' | 'created_at' | 'action'>> & { readonly label: EventLabel | null }

export type MilestoneEvent = EventCommon &
  Readonly<Pick<ResourceMilestoneEvent, 'id' | 'created_at' | 'action'>> & {
    readonly milestone: Readonly<Pick<Milestone, 'id' | 'title'>> | null
  }

export type StateEvent = EventCommon &
  Readonly<Pick<ResourceStateEvent, 'id' | 'created_at' | 'state' | 'source_commit' | 'source_merge_request_id'>>

/** A merge request a state event names as its source, as `…/closed_by` lists it. */
export interface SourceMergeRequest {
  readonly id: number
  readonly iid: number
  readonly project_id: number
  readonly references?: { readonly full?: string }
}

/** One line of the activity: a group of label events, or one milestone or state event. */
export type ActivityEvent =
  | {
      readonly kind: 'label'
      readonly key: string
      readonly user: EventUser | null
      readonly created_at: string
      readonly added: readonly (EventLabel | null)[]
      readonly removed: readonly (EventLabel | null)[]
    }
  | {
      readonly kind: 'milestone'
      readonly key: string
      readonly user: EventUser | null
      readonly created_at: string
      readonly action: 'add' | 'remove'
      readonly milestone: string | null
    }
  | {
      readonly kind: 'state'
      readonly key: string
      readonly user: EventUser | null
      readonly created_at: string
      readonly state: string
      readonly commit: string | null
      /** The merge request named by `source_merge_request_id`, when it could be found; its id alone otherwise. */
      readonly mergeRequest: SourceMergeRequest | { readonly id: number } | null
    }

export interface ResourceEventLists {
  readonly labels: readonly LabelEvent[]
  readonly milestones: readonly MilestoneEvent[]
  readonly states: readonly StateEvent[]
}

const time = (iso: string): number => Date.parse(iso)
/** GitLab groups label events of one change: same user, same second (one transaction). */
const second = (iso: string): number => Math.floor(time(iso) / 1000)

/**
 * The three lists as activity entries, oldest first: consecutive label events of the same user
 * in the same second become one entry ("added ~a ~b labels and removed ~c label").
 */
export function activityEvents(
  lists: ResourceEventLists,
  sources: readonly SourceMergeRequest[] = [],
): ActivityEvent[] {
  const tagged = [
    ...lists.labels.map((e) => ({
      at: time(e.created_at),
      order: 0,
      id: e.id,
      entry: { type: 'label' as const, event: e },
    })),
    ...lists.milestones.map((e) => ({
      at: time(e.created_at),
      order: 1,
      id: e.id,
      entry: { type: 'milestone' as const, event: e },
    })),
    ...lists.states.map((e) => ({
      at: time(e.created_at),
      order: 2,
      id: e.id,
      entry: { type: 'state' as const, event: e },
    })),
  ].sort((a, b) => a.at - b.at || a.order - b.order || a.id - b.id)

  const out: ActivityEvent[] = []
  for (const { entry } of tagged) {
    if (entry.type === 'label') {
      const e = entry.event
      const last = out.at(-1)
      if (
        last?.kind === 'label' &&
        last.user?.username === e.user?.username &&
        second(last.created_at) === second(e.created_at)
      ) {
        out[out.length - 1] = {
          ...last,
          added: e.action === 'add' ? [...last.added, e.label] : last.added,
          removed: e.action === 'remove' ? [...last.removed, e.label] : last.removed,
        }
        continue
      }
      out.push({
        kind: 'label',
        key: `label-${e.id}`,
        user: e.user,
        created_at: e.created_at,
        added: e.action === 'add' ? [e.label] : [],
        removed: e.action === 'remove' ? [e.label] : [],
      })
    } else if (entry.type === 'milestone') {
      const e = entry.event
      out.push({
        kind: 'milestone',
        key: `milestone-${e.id}`,
        user: e.user,
        created_at: e.created_at,
        action: e.action,
        milestone: e.milestone?.title ?? null,
      })
    } else {
      const e = entry.event
      const id = e.source_merge_request_id
      const mergeRequest = id === null ? null : (sources.find((m) => m.id === id) ?? { id })
      out.push({
        kind: 'state',
        key: `state-${e.id}`,
        user: e.user,
        created_at: e.created_at,
        state: e.state,
        commit: e.source_commit,
        mergeRequest,
      })
    }
  }
  return out
}

/**
 * `entries` (the discussions, in the order given) with `events` placed among them by time: an
 * event goes before the first entry that is later, and after entries of the same moment.
 * The entries keep their order, so comments still waiting in the outbox stay last.
 */
export function mergeByTime<T>(
  entries: readonly T[],
  at: (entry: T) => string | null,
  events: readonly ActivityEvent[],
): ({ readonly type: 'entry'; readonly entry: T } | { readonly type: 'event'; readonly event: ActivityEvent })[] {
  const out: ({ type: 'entry'; entry: T } | { type: 'event'; event: ActivityEvent })[] = []
  let next = 0
  for (const entry of entries) {
    const when = at(entry)
    const t = when === null ? Number.NaN : time(when)
    if (!Number.isNaN(t)) {
      while (next < events.length && time(events[next].created_at) < t)
        out.push({ type: 'event', event: events[next++] })
    }
    out.push({ type: 'entry', entry })
  }
  while (next < events.length) out.push({ type: 'event', event: events[next++] })
  return out
}

/** A piece of an event's sentence: text, a label chip, a milestone or commit, or a merge request reference. */
export type SentencePiece =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'label'; readonly label: EventLabel | null }
  | { readonly type: 'milestone'; readonly text: string }
  | { readonly type: 'commit'; readonly sha: string; readonly text: string }
  | { readonly type: 'merge-request'; readonly text: string; readonly namespace: string | null; readonly iid: number }

/**
 * What GitLab's web UI writes for an event after its author, in pieces: "added ~a ~b labels and
 * removed ~c label", "changed milestone to 3.6", "removed milestone 3.6" (the title as it reads, not
 * the `%"Release 3.6"` reference syntax), "closed", "closed via
 * merge request !12", "closed via commit 1a2b3c4d". `projectId` is the item's project (null for
 * an epic): a merge request elsewhere is named in full.
 */
export function eventSentence(event: ActivityEvent, projectId: number | null): SentencePiece[] {
  const text = (t: string): SentencePiece => ({ type: 'text', text: t })
  if (event.kind === 'label') {
    const parts = [
      { verb: 'added', labels: event.added },
      { verb: 'removed', labels: event.removed },
    ].filter((p) => p.labels.length > 0)
    return parts.flatMap((part, i) => [
      text(`${i > 0 ? ' and ' : ''}${part.verb} `),
      ...part.labels.flatMap((label): SentencePiece[] => [{ type: 'label', label }, text(' ')]),
      text(part.labels.length === 1 ? 'label' : 'labels'),
    ])
  }
  if (event.kind === 'milestone') {
    const verb = event.action === 'add' ? 'changed milestone to' : 'removed milestone'
    return event.milestone === null ? [text(verb)] : [text(`${verb} `), { type: 'milestone', text: event.milestone }]
  }
  const out: SentencePiece[] = [text(event.state)]
  const mr = event.mergeRequest
  if (mr !== null) {
    out.push(text(' via merge request'))
    if ('iid' in mr) {
      const full = mr.references?.full
      if (mr.project_id === projectId)
        out.push(text(' '), { type: 'merge-request', text: `!${mr.iid}`, namespace: null, iid: mr.iid })
      else if (full !== undefined)
        out.push(text(' '), { type: 'merge-request', text: full, namespace: full.split('!')[0], iid: mr.iid })
      else out.push(text(` !${mr.iid}`))
    }
  } else if (event.commit !== null) {
    out.push(text(' via commit '), { type: 'commit', sha: event.commit, text: event.commit.slice(0, 8) })
  }
  return out
}
