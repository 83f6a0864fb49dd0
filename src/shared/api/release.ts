/**
 * Releases of a project (GitLab's Releases and Release links APIs): a release per tag, with its
 * notes, the milestones it ships and links to its assets. Release evidence is not collected.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, Timestamp } from './common'
import { Milestone } from './milestone'
import { Commit } from './repository'
import { UserRef } from './user'

/** What a link points at: GitLab's four link types. */
export const ReleaseLinkType = Type.Enum(['other', 'runbook', 'image', 'package'])
export type ReleaseLinkType = Static<typeof ReleaseLinkType>

/** GitLab's `Releases::Link`: an asset of a release, somewhere else. */
export const ReleaseLink = Entity({
  id: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  /** The permanent `…/-/releases/:tag/downloads/:path` URL when the link has a direct asset path, else `url`. */
  direct_asset_url: Type.String(),
  link_type: ReleaseLinkType,
})
export type ReleaseLink = Static<typeof ReleaseLink>

/** A source archive of the tag (`zip`, `tar.gz`, `tar.bz2`, `tar`). */
export const ReleaseSource = Entity({ format: Type.String(), url: Type.String() })
export type ReleaseSource = Static<typeof ReleaseSource>

/** A milestone the release ships, with how many of its issues there are and how many are closed. */
export const ReleaseMilestone = Entity({
  ...Milestone.properties,
  issue_stats: Entity({ total: Type.Integer(), closed: Type.Integer() }),
})
export type ReleaseMilestone = Static<typeof ReleaseMilestone>

/**
 * GitLab's Release entity. The tag, its commit, the source archives and the paths into the code
 * are shown only to callers who may read the code (a Guest of a private project sees the notes
 * and links only); `milestones` only when there are some the caller may read.
 */
export const Release = Entity({
  name: Type.String(),
  tag_name: Type.Optional(Type.String()),
  description: Nullable(Type.String()),
  /** With `include_html_description=true`. */
  description_html: Type.Optional(Type.String()),
  created_at: Timestamp,
  released_at: Timestamp,
  /** Absent when the author's account was deleted. */
  author: Type.Optional(UserRef),
  commit: Type.Optional(Nullable(Commit)),
  /** `released_at` is in the future. */
  upcoming_release: Type.Boolean(),
  /** `released_at` is before the release was made. */
  historical_release: Type.Boolean(),
  milestones: Type.Optional(Type.Array(ReleaseMilestone)),
  commit_path: Type.Optional(Type.String()),
  tag_path: Type.Optional(Type.String()),
  assets: Entity({
    /** Sources and links together. */
    count: Type.Integer(),
    sources: Type.Optional(Type.Array(ReleaseSource)),
    links: Type.Array(ReleaseLink),
  }),
  /** Release evidence is not collected: always empty for readers of the code. */
  evidences: Type.Optional(
    Type.Array(Entity({ sha: Type.String(), filepath: Type.String(), collected_at: Timestamp })),
  ),
  _links: Entity({
    self: Type.String(),
    /** For callers who may edit the release. */
    edit_url: Type.Optional(Type.String()),
    opened_issues_url: Type.String(),
    closed_issues_url: Type.String(),
    opened_merge_requests_url: Type.String(),
    merged_merge_requests_url: Type.String(),
    closed_merge_requests_url: Type.String(),
  }),
})
export type Release = Static<typeof Release>
