/**
 * Repository records (spec "Repository records"): tree entries, blobs, commits and their diffs,
 * comparisons, branches, tags, contributors, files and changelogs.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, Timestamp } from './common'
import { PipelineBasic } from './pipeline'

/** GitLab's tree entry. */
export const TreeEntry = Entity({
  /** The object SHA. */
  id: Type.String(),
  name: Type.String(),
  type: Type.Enum(['tree', 'blob', 'commit']),
  path: Type.String(),
  /** Six octal digits, e.g. `100644`. */
  mode: Type.String(),
})
export type TreeEntry = Static<typeof TreeEntry>

/** `GET /projects/:id/repository/blobs/:sha`: the bytes as Base64. */
export const Blob = Entity({
  size: Type.Integer(),
  encoding: Type.Literal('base64'),
  content: Type.String(),
  sha: Type.String(),
})
export type Blob = Static<typeof Blob>

/** The fields of GitLab's Commit entity. */
const commitFields = {
  id: Type.String(),
  short_id: Type.String(),
  created_at: Timestamp,
  parent_ids: Type.Array(Type.String()),
  title: Type.String(),
  message: Type.String(),
  author_name: Type.String(),
  author_email: Type.String(),
  authored_date: Timestamp,
  committer_name: Type.String(),
  committer_email: Type.String(),
  committed_date: Timestamp,
  /** `Key: value` trailers of the message; empty unless asked for (`trailers=true`) in commit lists. */
  trailers: Type.Record(Type.String(), Type.String()),
  extended_trailers: Type.Record(Type.String(), Type.Array(Type.String())),
  web_url: Type.String(),
}

/**
 * GitLab's Commit entity: commit lists, a branch's or tag's commit, merge requests' commits, the
 * merge base, a job's commit.
 */
export const Commit = Entity(commitFields)
export type Commit = Static<typeof Commit>

/** GitLab's BlameRange (`GET …/files/:file_path/blame`): consecutive lines last changed by one commit. */
export const BlameRange = Entity({ commit: Commit, lines: Type.Array(Type.String()) })
export type BlameRange = Static<typeof BlameRange>

/** Lines a commit adds and removes. */
export const CommitStats = Entity({ additions: Type.Integer(), deletions: Type.Integer(), total: Type.Integer() })
export type CommitStats = Static<typeof CommitStats>

/** A commit in a list asked `with_stats=true`. */
export const CommitListItem = Entity({ ...commitFields, stats: Type.Optional(CommitStats) })
export type CommitListItem = Static<typeof CommitListItem>

/** GitLab's CommitDetail (`GET …/commits/:sha`, `POST …/commits`): stats unless `stats=false`. */
export const CommitDetail = Entity({
  ...commitFields,
  stats: Type.Optional(CommitStats),
  /** The commit's pipeline status; Burrow Server does not link commits to pipelines here. */
  status: Nullable(Type.String()),
  project_id: Type.Integer(),
  last_pipeline: Nullable(PipelineBasic),
})
export type CommitDetail = Static<typeof CommitDetail>

/** `GET …/commits/:sha/refs`: a branch or tag containing the commit. */
export const CommitRef = Entity({ type: Type.Enum(['branch', 'tag']), name: Type.String() })
export type CommitRef = Static<typeof CommitRef>

/** `GET …/commits/:sha/sequence`: how many commits the commit's history holds, itself included. */
export const CommitSequence = Entity({ count: Type.Integer() })
export type CommitSequence = Static<typeof CommitSequence>

/** GitLab's Diff: one file's change. `diff` can be empty when diff limits are reached. */
export const Diff = Entity({
  diff: Type.String(),
  new_path: Type.String(),
  old_path: Type.String(),
  a_mode: Type.String(),
  b_mode: Type.String(),
  new_file: Type.Boolean(),
  renamed_file: Type.Boolean(),
  deleted_file: Type.Boolean(),
  generated_file: Nullable(Type.Boolean()),
})
export type Diff = Static<typeof Diff>

/** `GET /projects/:id/repository/compare`: `commit` is the newest commit of the range, `commits` oldest first. */
export const Compare = Entity({
  commit: Nullable(Commit),
  commits: Type.Array(Commit),
  diffs: Type.Array(Diff),
  compare_timeout: Type.Boolean(),
  compare_same_ref: Type.Boolean(),
  web_url: Type.String(),
})
export type Compare = Static<typeof Compare>

/** GitLab's Contributor; `additions` and `deletions` are deprecated and always 0. */
export const Contributor = Entity({
  name: Type.String(),
  email: Type.String(),
  commits: Type.Integer(),
  additions: Type.Integer(),
  deletions: Type.Integer(),
})
export type Contributor = Static<typeof Contributor>

/** GitLab's Branch entity. */
export const Branch = Entity({
  name: Type.String(),
  commit: Commit,
  merged: Type.Boolean(),
  protected: Type.Boolean(),
  developers_can_push: Type.Boolean(),
  developers_can_merge: Type.Boolean(),
  can_push: Type.Boolean(),
  default: Type.Boolean(),
  web_url: Type.String(),
})
export type Branch = Static<typeof Branch>

/** What a tag shows of its release (GitLab's TagRelease). */
export const TagRelease = Entity({ tag_name: Type.String(), description: Nullable(Type.String()) })
export type TagRelease = Static<typeof TagRelease>

/** GitLab's Tag entity. Protected tags do not exist on Burrow Server yet. */
export const Tag = Entity({
  name: Type.String(),
  message: Type.String(),
  /** The tag object for annotated tags, the commit for lightweight ones. */
  target: Type.String(),
  commit: Nullable(Commit),
  /** The tag's release, for callers who may read releases. */
  release: Nullable(TagRelease),
  protected: Type.Boolean(),
  created_at: Nullable(Timestamp),
})
export type Tag = Static<typeof Tag>

/** `GET /projects/:id/repository/files/:file_path`: the file's metadata and Base64 content. */
export const RepositoryFile = Entity({
  file_name: Type.String(),
  file_path: Type.String(),
  size: Type.Integer(),
  encoding: Type.Literal('base64'),
  content_sha256: Type.String(),
  ref: Type.String(),
  blob_id: Type.String(),
  commit_id: Type.String(),
  last_commit_id: Type.String(),
  execute_filemode: Type.Boolean(),
  content: Type.String(),
})
export type RepositoryFile = Static<typeof RepositoryFile>

/** `POST`/`PUT /projects/:id/repository/files/:file_path`: what was written where. */
export const FileCommit = Entity({ file_path: Type.String(), branch: Type.String() })
export type FileCommit = Static<typeof FileCommit>

/** `GET /projects/:id/repository/changelog`: the Markdown release notes. */
export const ChangelogNotes = Entity({ notes: Type.String() })
export type ChangelogNotes = Static<typeof ChangelogNotes>
