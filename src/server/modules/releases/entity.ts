import type { Release, ReleaseLink, ReleaseMilestone, ReleaseSource } from '../../../shared/api/release'
import type { Commit, TagRelease } from '../../../shared/api/repository'
import type { UserRef } from '../../../shared/api/user'
import { commitEntity, type GitCommit } from '../../platform/git/commits'
import { renderParagraphs } from '../../platform/text/markdown'
import { milestoneEntity } from '../milestones'
import type { ReleaseLinkRow, ReleaseMilestoneRow, ReleaseRow } from './queries'

/** The source archive formats a release lists, in GitLab's order. */
const SOURCE_FORMATS = ['zip', 'tar.gz', 'tar.bz2', 'tar'] as const

/** Where a project's releases live on the web, and what the caller may see of them. */
export interface ReleaseView {
  readonly baseUrl: string
  /** `group/project`. */
  readonly fullPath: string
  /** The project's own path (archive file names start with it). */
  readonly projectPath: string
  /** The caller may read the code: tag, commit, sources and paths are shown. */
  readonly canReadCode: boolean
  /** The caller may edit releases: `_links.edit_url` is shown. */
  readonly canEdit: boolean
  readonly includeHtml: boolean
  /** The time upcoming releases are judged against. */
  readonly now: string
}

/** What one release needs besides its row, loaded for a whole page. */
export interface ReleaseParts {
  readonly author: UserRef | undefined
  readonly commit: GitCommit | undefined
  readonly links: readonly ReleaseLinkRow[]
  readonly milestones: readonly ReleaseMilestoneRow[]
}

/** The project's web URL (`http://host/group/project`). */
function projectWebUrl(view: ReleaseView): string {
  return `${view.baseUrl}/${view.fullPath}`
}

/** GitLab's permanent URL of a release asset: `…/-/releases/:tag/downloads/:path` (the path keeps its `/`). */
export function directAssetUrl(view: ReleaseView, tag: string, link: ReleaseLinkRow): string {
  if (link.filepath === null) return link.url
  return `${projectWebUrl(view)}/-/releases/${encodeURIComponent(tag)}/downloads${link.filepath}`
}

/** GitLab's `Releases::Link` entity. */
export function releaseLinkEntity(view: ReleaseView, tag: string, link: ReleaseLinkRow): ReleaseLink {
  return {
    id: link.id,
    name: link.name,
    url: link.url,
    direct_asset_url: directAssetUrl(view, tag, link),
    link_type: link.link_type,
  }
}

function sources(view: ReleaseView, tag: string): ReleaseSource[] {
  const archive = `${projectWebUrl(view)}/-/archive/${encodeURIComponent(tag)}`
  const file = `${view.projectPath}-${tag.replace(/\//g, '-')}`
  return SOURCE_FORMATS.map((format) => ({ format, url: `${archive}/${file}.${format}` }))
}

function milestoneWithStats(view: ReleaseView, row: ReleaseMilestoneRow): ReleaseMilestone {
  // A release's milestones are the project's or its group's: the owner path is one of the two.
  const ownerPath = row.project_id !== null ? view.fullPath : view.fullPath.split('/').slice(0, -1).join('/')
  return {
    ...milestoneEntity(row, view.baseUrl, ownerPath, view.now.slice(0, 10)),
    issue_stats: { total: row.issues_total, closed: row.issues_closed },
  }
}

function releaseLinks(view: ReleaseView, tag: string): Release['_links'] {
  const web = projectWebUrl(view)
  const query = (kind: string, state: string): string =>
    `${web}/-/${kind}?release_tag=${encodeURIComponent(tag)}&scope=all&state=${state}`
  return {
    self: `${web}/-/releases/${encodeURIComponent(tag)}`,
    ...(view.canEdit ? { edit_url: `${web}/-/releases/${encodeURIComponent(tag)}/edit` } : {}),
    opened_issues_url: query('issues', 'opened'),
    closed_issues_url: query('issues', 'closed'),
    opened_merge_requests_url: query('merge_requests', 'opened'),
    merged_merge_requests_url: query('merge_requests', 'merged'),
    closed_merge_requests_url: query('merge_requests', 'closed'),
  }
}

/** GitLab's Release entity for one release of a page. */
export function releaseEntity(view: ReleaseView, row: ReleaseRow, parts: ReleaseParts): Release {
  const code = view.canReadCode
  const links = parts.links.map((l) => releaseLinkEntity(view, row.tag, l))
  const milestones = parts.milestones.map((m) => milestoneWithStats(view, m))
  const sha = parts.commit?.id ?? row.sha
  return {
    name: row.name,
    ...(code ? { tag_name: row.tag } : {}),
    description: row.description,
    ...(view.includeHtml ? { description_html: renderParagraphs(row.description) } : {}),
    created_at: row.created_at,
    released_at: row.released_at,
    ...(parts.author ? { author: parts.author } : {}),
    ...(code ? { commit: parts.commit ? (commitEntity(parts.commit, projectWebUrl(view)) as Commit) : null } : {}),
    upcoming_release: row.released_at > view.now,
    historical_release: row.released_at < row.created_at,
    ...(milestones.length > 0 ? { milestones } : {}),
    ...(code && sha ? { commit_path: `/${view.fullPath}/-/commit/${sha}` } : {}),
    ...(code ? { tag_path: `/${view.fullPath}/-/tags/${encodeURIComponent(row.tag)}` } : {}),
    assets: {
      count: links.length + (code ? SOURCE_FORMATS.length : 0),
      ...(code ? { sources: sources(view, row.tag) } : {}),
      links,
    },
    ...(code ? { evidences: [] } : {}),
    _links: releaseLinks(view, row.tag),
  }
}

/** What a tag shows of its release (GitLab's TagRelease). */
export function tagReleaseEntity(row: ReleaseRow): TagRelease {
  return { tag_name: row.tag, description: row.description }
}
