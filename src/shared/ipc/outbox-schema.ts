import { Type, type Static, type TSchema } from 'typebox'
import { Entity, Nullable } from '../api/common'
import { isRecord } from '../json'
import type { ArgsValidator } from './contract'
import { MAX_ACCOUNT_ID_LENGTH } from './account-id'
import { Position } from './diff-position-schema'
import { ISSUE_LINK_TYPES, ISSUE_ONLY_CHANGES, MERGE_REQUEST_ONLY_CHANGES } from './outbox'
import { refProblem } from './repos'
import { argumentsCheck, Explained, mustBeOneOf, PositiveInteger, schemaCheck } from './schema-check'

/**
 * The outbox channels' requests (outbox.ts), declared once as TypeBox schemas: the type is their
 * `Static`, the check is compiled from them. Refusals are whole sentences naming their field
 * (`title must be …`, `unknown field(s): a, b`). Only core imports this module (through
 * request-validators.ts); the renderer takes the types from outbox.ts.
 */

// ---- field shapes ---------------------------------------------------------------------------------

/** At least one character that is not white space. */
const NOT_BLANK = '\\S'
/** A label name in a list: not blank, no comma (GitLab's list separator). */
const LABEL_NAME = '^(?=[^,]*\\S)[^,]*$'
/** A commit id, abbreviated or full. */
const COMMIT_ID = '^[0-9a-f]{7,64}$'

/** A (safe) integer other than 0. */
const NonZero = Type.Refine(
  Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }),
  (v) => v !== 0,
)

/** A positive id: `${name} must be a positive integer`, or `text` when given. */
export const PositiveId = (name: string, text = `${name} must be a positive integer`) =>
  Explained(PositiveInteger, text)

/** A non-blank string of at most `max` characters. */
const FilledText = (max: number, text: string) => Explained(Type.String({ maxLength: max, pattern: NOT_BLANK }), text)

const Title = FilledText(255, 'title must be a non-empty string of at most 255 characters')
const Description = Explained(Type.String({ maxLength: 1_048_576 }), 'description must be a string of at most 1 MiB')
const LabelNames = (name: string) =>
  Explained(
    Type.Immutable(Type.Array(Type.String({ maxLength: 255, pattern: LABEL_NAME }), { maxItems: 100 })),
    `${name} must be a list of label names (no commas)`,
  )
const UserIds = (name: string) =>
  Explained(Type.Immutable(Type.Array(PositiveInteger, { maxItems: 100 })), `${name} must be a list of user ids`)
const Flag = (name: string) => Explained(Type.Boolean(), `${name} must be a boolean`)
export const CommitId = (name: string) => Explained(Type.String({ pattern: COMMIT_ID }), `${name} must be a commit id`)

/** A real calendar day as `YYYY-MM-DD`. */
function isCalendarDay(value: string): boolean {
  const d = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value
}
const CalendarDay = Type.Refine(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), isCalendarDay)

/** A comment's text (GitLab's limit is a million characters). */
export const Body = (name: string) => FilledText(1_000_000, `${name} must be a non-empty string`)

/** A discussion id (GitLab's are 40 hexadecimal characters). */
export const DiscussionId = Explained(
  Type.String({ maxLength: 64, pattern: '^[0-9a-fA-F]+$' }),
  'discussionId must be a discussion id (hexadecimal)',
)

/** A commit's full SHA: 40 or 64 lowercase hexadecimal characters. */
const FullSha = (text: string) => Explained(Type.String({ pattern: '^([0-9a-f]{40}|[0-9a-f]{64})$' }), text)

/** A branch name (git's ref rules, refProblem's reason under the field's name). */
const Branch = (name: string) =>
  Explained(Type.String(), (value) => {
    const problem = refProblem(value)
    return problem === null ? null : `${name}: ${problem}`
  })

/** The optional fields a new issue and a new merge request share, by the API's names. */
const newItemFields = {
  description: Type.Optional(Description),
  labels: Type.Optional(LabelNames('labels')),
  assignee_ids: Type.Optional(UserIds('assignee_ids')),
  milestone_id: Type.Optional(PositiveId('milestone_id', 'milestone_id must be a milestone id')),
}

/** A new issue (`POST /projects/:id/issues`), by the API's field names. */
export const NewIssue = Explained(
  Entity({
    title: Title,
    ...newItemFields,
    due_date: Type.Optional(Explained(CalendarDay, 'due_date must be a date (YYYY-MM-DD)')),
    confidential: Type.Optional(Flag('confidential')),
  }),
  'fields must be an object',
)
export type NewIssue = Static<typeof NewIssue>

/** A new merge request (`POST /projects/:id/merge_requests`), by the API's field names. */
export const NewMergeRequest = Explained(
  Entity({
    source_branch: Branch('source_branch'),
    target_branch: Branch('target_branch'),
    /** A draft's title starts with `Draft: ` (GitLab's rule); the app adds it when `draft` is set. */
    title: Title,
    ...newItemFields,
    reviewer_ids: Type.Optional(UserIds('reviewer_ids')),
    remove_source_branch: Type.Optional(Flag('remove_source_branch')),
  }),
  (value) => {
    if (!isRecord(value)) return 'fields must be an object'
    return value.source_branch === value.target_branch ? 'source_branch and target_branch must differ' : null
  },
)
export type NewMergeRequest = Static<typeof NewMergeRequest>

/**
 * Field changes of one issue or merge request update (one `PUT`), by their API names. `labels`
 * replaces the whole set; `add_labels`/`remove_labels` change it relative to whatever the
 * server has, so they never conflict. `milestone_id: null` removes the milestone.
 */
export const ItemChanges = Explained(
  Entity({
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    labels: Type.Optional(LabelNames('labels')),
    add_labels: Type.Optional(LabelNames('add_labels')),
    remove_labels: Type.Optional(LabelNames('remove_labels')),
    assignee_ids: Type.Optional(UserIds('assignee_ids')),
    /** Merge requests only: the reviewers, all of them (empty removes every reviewer). */
    reviewer_ids: Type.Optional(UserIds('reviewer_ids')),
    milestone_id: Type.Optional(Explained(Nullable(PositiveInteger), 'milestone_id must be a milestone id or null')),
    state_event: Type.Optional(Explained(Type.Enum(['close', 'reopen']), "state_event must be 'close' or 'reopen'")),
    /** Issues only: `YYYY-MM-DD`, or null to clear it. */
    due_date: Type.Optional(Explained(Nullable(CalendarDay), 'due_date must be a date (YYYY-MM-DD) or null')),
    /** Issues only: a whole number from 0, or null to clear it. */
    weight: Type.Optional(
      Explained(
        Nullable(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
        'weight must be a whole number from 0, or null',
      ),
    ),
    /** Issues only: the epic's id (not its iid), or null to take the issue out of its epic. */
    epic_id: Type.Optional(Explained(Nullable(PositiveInteger), 'epic_id must be an epic id or null')),
  }),
  (value) => {
    if (!isRecord(value)) return 'changes must be an object'
    if (Object.values(value).every((v) => v === undefined)) return 'changes must change at least one field'
    if (value.labels !== undefined && (value.add_labels !== undefined || value.remove_labels !== undefined))
      return 'give labels, or add_labels/remove_labels, not both'
    return null
  },
)
export type ItemChanges = Static<typeof ItemChanges>

/** Checks an ItemChanges object; returns the first problem or null. */
export const itemChangesProblem = schemaCheck(ItemChanges, { style: 'verbatim' })

/** Keep my version (sent again over theirs), or take theirs (mine discarded). */
const KeepResolution = Entity({ choice: Type.Enum(['mine', 'theirs']) })
/** Send an edited version. */
const EditedResolution = Entity({ choice: Type.Literal('edited'), changes: ItemChanges })

/** `outbox:resolve`: keep my version, take theirs, or send an edited version. */
export const ConflictResolution = Type.Union([KeepResolution, EditedResolution])
export type ConflictResolution = Static<typeof ConflictResolution>

// ---- requests -------------------------------------------------------------------------------------

/** An item's project and iid: a pending creation's temporary iid is negative. */
const itemRef = {
  projectId: PositiveId('projectId'),
  iid: Explained(NonZero, "iid must be a positive integer (or a pending creation's temporary, negative one)"),
}

/** Requests of the item write channels (`issues:*`, `merge-requests:*`). */
export const ItemRef = Entity(itemRef)
export type ItemRef = Static<typeof ItemRef>

const reply = { body: Body('body'), discussionId: Type.Optional(DiscussionId) }

/** `issues:comment`: a comment, or a reply in a thread (`discussionId`). */
const IssueCommentRequest = Entity({ ...itemRef, ...reply })

/** Why a comment with a position is refused: a reply goes in its thread, which is where it is. */
export const replyPositionRule = (o: unknown): string | null =>
  isRecord(o) && o.position !== undefined && o.discussionId !== undefined
    ? 'a reply takes no position: it goes in its thread'
    : null

/**
 * `merge-requests:comment`: a comment, a reply, or a new thread on a line of the diff (`position`),
 * of the merge request or of one of its commits (`commitId`).
 */
export const CommentRequest = Explained(
  Entity({
    ...itemRef,
    ...reply,
    /** Start a thread on this line of the diff. Not with `discussionId`. */
    position: Type.Optional(Position),
    /** With `position`: the line is on this commit's own diff (GitLab's `commit_id`), not the merge request's. */
    commitId: Type.Optional(FullSha("commitId must be a commit's full SHA")),
  }),
  (o) =>
    isRecord(o) && o.commitId !== undefined && o.position === undefined
      ? 'commitId goes with a position on that commit’s diff'
      : replyPositionRule(o),
)
export type CommentRequest = Static<typeof CommentRequest>

export const UpdateRequest = Entity({ ...itemRef, changes: ItemChanges })
export type UpdateRequest = Static<typeof UpdateRequest>

export const TimeEstimateRequest = Entity({
  ...itemRef,
  seconds: Explained(
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    'seconds must be a non-negative integer',
  ),
})
export type TimeEstimateRequest = Static<typeof TimeEstimateRequest>

export const SpentTimeRequest = Entity({
  ...itemRef,
  seconds: Explained(NonZero, 'seconds must be a non-zero integer'),
  summary: Type.Optional(
    Explained(Type.String({ maxLength: 255 }), 'summary must be a string of at most 255 characters'),
  ),
})
export type SpentTimeRequest = Static<typeof SpentTimeRequest>

export const SubscribeRequest = Entity({ ...itemRef, subscribed: Flag('subscribed') })
export type SubscribeRequest = Static<typeof SubscribeRequest>

/** The other issue of a link: a cached project's issue (a real iid: a pending new issue cannot be linked yet). */
const linkTarget = { targetProjectId: PositiveId('targetProjectId'), targetIid: PositiveId('targetIid') }

/** An issue linked to itself, which GitLab refuses. */
const selfLinkRule = (o: unknown): string | null =>
  isRecord(o) && o.targetProjectId === o.projectId && o.targetIid === o.iid
    ? 'an issue cannot be linked to itself'
    : null

/** `issues:link`: links the issue to `targetProjectId`'s issue `targetIid`. */
export const LinkIssueRequest = Explained(
  Entity({
    ...itemRef,
    ...linkTarget,
    linkType: Explained(Type.Enum(ISSUE_LINK_TYPES), `linkType ${mustBeOneOf(ISSUE_LINK_TYPES)}`),
  }),
  selfLinkRule,
)
export type LinkIssueRequest = Static<typeof LinkIssueRequest>

/** `issues:unlink`: removes the issue's link to `targetProjectId`'s issue `targetIid`. */
export const UnlinkIssueRequest = Explained(Entity({ ...itemRef, ...linkTarget }), selfLinkRule)
export type UnlinkIssueRequest = Static<typeof UnlinkIssueRequest>

/** `commits:comment`: a comment on a commit (on a line of its diff with `position`), or a reply in its thread. */
export const CommitCommentRequest = Explained(
  Entity({
    projectId: PositiveId('projectId'),
    /** The commit's full SHA (its writes are grouped by it). */
    sha: FullSha("sha must be the commit's full SHA (40 or 64 lowercase hexadecimal characters)"),
    ...reply,
    /** A line of the commit's own diff (its parent as base and start, itself as head). Not with `discussionId`. */
    position: Type.Optional(Position),
  }),
  replyPositionRule,
)
export type CommitCommentRequest = Static<typeof CommitCommentRequest>

export const CreateIssueRequest = Entity({ projectId: PositiveId('projectId'), fields: NewIssue })
export type CreateIssueRequest = Static<typeof CreateIssueRequest>

export const CreateMergeRequestRequest = Entity({ projectId: PositiveId('projectId'), fields: NewMergeRequest })
export type CreateMergeRequestRequest = Static<typeof CreateMergeRequestRequest>

export const MarkTodoDoneRequest = Entity({ todoId: PositiveId('todoId') })
export type MarkTodoDoneRequest = Static<typeof MarkTodoDoneRequest>

export const MergeRequestMergeRequest = Entity({
  ...itemRef,
  mergeCommitMessage: Type.Optional(FilledText(100_000, 'mergeCommitMessage must be a non-empty string')),
  squashCommitMessage: Type.Optional(FilledText(100_000, 'squashCommitMessage must be a non-empty string')),
  squash: Type.Optional(Flag('squash')),
  shouldRemoveSourceBranch: Type.Optional(Flag('shouldRemoveSourceBranch')),
  /** The head the user reviewed; the server refuses the merge if the branch moved. */
  sha: Type.Optional(CommitId('sha')),
})
export type MergeRequestMergeRequest = Static<typeof MergeRequestMergeRequest>

export const MergeRequestRebaseRequest = Entity({ ...itemRef, skipCi: Type.Optional(Flag('skipCi')) })
export type MergeRequestRebaseRequest = Static<typeof MergeRequestRebaseRequest>

/** A review suggestion of the merge request to apply as a commit on its source branch. */
export const ApplySuggestionRequest = Entity({
  ...itemRef,
  suggestionId: PositiveId('suggestionId'),
  commitMessage: Type.Optional(FilledText(100_000, 'commitMessage must be a non-empty string')),
})
export type ApplySuggestionRequest = Static<typeof ApplySuggestionRequest>

/** The most suggestions one batch takes (GitLab's batch is one commit; a review rarely holds more). */
export const MAX_SUGGESTION_BATCH = 100

/** At least one id, none given twice (the list's length is capped by its schema). */
function distinctIds(ids: readonly number[]): boolean {
  return ids.length > 0 && new Set(ids).size === ids.length
}

/** A batch of the merge request's review suggestions to apply as one commit on its source branch. */
export const ApplySuggestionsRequest = Entity({
  ...itemRef,
  suggestionIds: Explained(
    Type.Refine(Type.Immutable(Type.Array(PositiveInteger, { maxItems: MAX_SUGGESTION_BATCH })), distinctIds),
    `suggestionIds must be a list of 1 to ${MAX_SUGGESTION_BATCH} suggestion ids, each given once`,
  ),
  commitMessage: Type.Optional(FilledText(100_000, 'commitMessage must be a non-empty string')),
})
export type ApplySuggestionsRequest = Static<typeof ApplySuggestionsRequest>

export const OutboxListFilter = Entity({
  accountId: Type.Optional(FilledText(200, 'accountId must be a non-empty string')),
  /** Also entries that are done, reconciled or discarded (the last 200). */
  includeSettled: Type.Optional(Flag('includeSettled')),
})
export type OutboxListFilter = Static<typeof OutboxListFilter>

// ---- validators -----------------------------------------------------------------------------------

/** The account a write is for: an account id (AccountId) that is not blank either. */
const WriteAccountId = Explained(
  Type.String({ minLength: 1, maxLength: MAX_ACCOUNT_ID_LENGTH, pattern: '\\S' }),
  'must be a non-empty string',
)

/** A validator of `[accountId, request]`, the request checked against `schema` (in the `verbatim` style). */
export function accountAndRequest(schema: TSchema): ArgsValidator {
  return argumentsCheck({ accountId: WriteAccountId, request: schema }, { style: 'verbatim' })
}

/** The fields of `changes` (when an object) among `names`. */
const given = (changes: unknown, names: readonly string[]): string[] =>
  isRecord(changes) ? names.filter((k) => changes[k] !== undefined) : []

/** An update of an item of one type: the fields only the other type has are refused by name. */
const updateOf = (refusing: readonly string[], what: string) =>
  Explained(Entity({ ...itemRef, changes: ItemChanges }), (o) => {
    const others = isRecord(o) ? given(o.changes, refusing) : []
    return others.length > 0 ? `${what} have no ${others.join(', ')}` : null
  })

export const commentArgs = accountAndRequest(IssueCommentRequest)
export const mergeRequestCommentArgs = accountAndRequest(CommentRequest)
/** `issues:update`: the item changes less the merge-request-only fields. */
export const updateArgs = accountAndRequest(updateOf(MERGE_REQUEST_ONLY_CHANGES, 'issues'))
/** `merge-requests:update`: the item changes less the issue-only fields. */
export const mergeRequestUpdateArgs = accountAndRequest(updateOf(ISSUE_ONLY_CHANGES, 'merge requests'))
export const timeEstimateArgs = accountAndRequest(TimeEstimateRequest)
export const spentTimeArgs = accountAndRequest(SpentTimeRequest)
export const itemArgs = accountAndRequest(ItemRef)
export const createIssueArgs = accountAndRequest(CreateIssueRequest)
export const createMergeRequestArgs = accountAndRequest(CreateMergeRequestRequest)
export const subscribeArgs = accountAndRequest(SubscribeRequest)
export const commitCommentArgs = accountAndRequest(CommitCommentRequest)
export const linkIssueArgs = accountAndRequest(LinkIssueRequest)
export const unlinkIssueArgs = accountAndRequest(UnlinkIssueRequest)
export const markTodoDoneArgs = accountAndRequest(MarkTodoDoneRequest)
export const mergeArgs = accountAndRequest(MergeRequestMergeRequest)
export const rebaseArgs = accountAndRequest(MergeRequestRebaseRequest)
export const applySuggestionArgs = accountAndRequest(ApplySuggestionRequest)
export const applySuggestionsArgs = accountAndRequest(ApplySuggestionsRequest)

const outboxListFilter = schemaCheck(OutboxListFilter, { style: 'verbatim' })

export const outboxListArgs: ArgsValidator = (args) => {
  if (args.length === 0) return null
  if (args.length !== 1 || !isRecord(args[0]))
    return 'expected no argument or one filter object {accountId?, includeSettled?}'
  return outboxListFilter(args[0])
}

const isEntryId = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value > 0

export const outboxEntryIdArgs: ArgsValidator = (args) =>
  args.length === 1 && isEntryId(args[0]) ? null : 'expected one outbox entry id (a positive integer)'

const keepResolution = schemaCheck(KeepResolution, { style: 'verbatim' })
const editedResolution = schemaCheck(EditedResolution, { style: 'verbatim' })

/** `outbox:resolve`: the resolution is checked against the branch its `choice` names. */
export const outboxResolveArgs: ArgsValidator = (args) => {
  if (args.length !== 2 || !isEntryId(args[0])) return 'expected [entryId, resolution]'
  const r = args[1]
  if (!isRecord(r)) return "resolution must be {choice: 'mine' | 'theirs'} or {choice: 'edited', changes}"
  if (r.choice === 'mine' || r.choice === 'theirs') return keepResolution(r)
  if (r.choice === 'edited') return editedResolution(r)
  return "resolution.choice must be 'mine', 'theirs' or 'edited'"
}

/** The validators of the outbox channels, spread into request-validators.ts. */
export const outboxValidators = {
  'issues:create': createIssueArgs,
  'merge-requests:create': createMergeRequestArgs,
  'issues:comment': commentArgs,
  'issues:update': updateArgs,
  'issues:time-estimate': timeEstimateArgs,
  'issues:add-spent-time': spentTimeArgs,
  'issues:todo': itemArgs,
  'issues:subscribe': subscribeArgs,
  'issues:link': linkIssueArgs,
  'issues:unlink': unlinkIssueArgs,
  'merge-requests:comment': mergeRequestCommentArgs,
  'merge-requests:update': mergeRequestUpdateArgs,
  'merge-requests:time-estimate': timeEstimateArgs,
  'merge-requests:add-spent-time': spentTimeArgs,
  'merge-requests:todo': itemArgs,
  'merge-requests:subscribe': subscribeArgs,
  'todos:mark-done': markTodoDoneArgs,
  'commits:comment': commitCommentArgs,
  'merge-requests:merge': mergeArgs,
  'merge-requests:rebase': rebaseArgs,
  'merge-requests:approve': itemArgs,
  'merge-requests:unapprove': itemArgs,
  'merge-requests:apply-suggestion': applySuggestionArgs,
  'merge-requests:apply-suggestions': applySuggestionsArgs,
  'outbox:list': outboxListArgs,
  'outbox:retry': outboxEntryIdArgs,
  'outbox:discard': outboxEntryIdArgs,
  'outbox:resolve': outboxResolveArgs,
} as const
