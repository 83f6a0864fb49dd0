/** The search API's answers (`GET /search`, `/groups/:id/search`, `/projects/:id/search`). */
import { Type, type Static } from 'typebox'
import { Entity, Nullable } from './common'
import { Issue } from './issue'
import { MergeRequest } from './merge-request'
import { Milestone } from './milestone'
import { Note } from './note'
import { ProjectSimple } from './project'
import { CommitDetail } from './repository'
import { Snippet } from './snippet'
import { UserBasic } from './user'

/** GitLab's search blob: a chunk of matching lines of a file (or wiki page) at a ref. */
export const SearchBlob = Entity({
  /** The path without its extension. */
  basename: Type.String(),
  /** The matching lines with two lines of context around them. */
  data: Type.String(),
  path: Type.String(),
  /** The path again (GitLab's older field). */
  filename: Type.String(),
  /** Always null in GitLab's basic search. */
  id: Nullable(Type.String()),
  ref: Type.String(),
  /** The 1-based number of the chunk's first line. */
  startline: Type.Integer(),
  project_id: Type.Integer(),
})
export type SearchBlob = Static<typeof SearchBlob>

/** A page of search results: the entity of the scope searched. */
export const SearchResults = Type.Union([
  Type.Array(ProjectSimple),
  Type.Array(Issue),
  Type.Array(MergeRequest),
  Type.Array(Milestone),
  Type.Array(Snippet),
  Type.Array(UserBasic),
  Type.Array(Note),
  Type.Array(CommitDetail),
  Type.Array(SearchBlob),
])
export type SearchResults = Static<typeof SearchResults>
