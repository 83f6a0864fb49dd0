import type { Badge, BadgePreview } from '../../../shared/api/badge'
import type { Caller } from '../../platform/caller'
import type { ProjectWithNamespaceRow } from '../../platform/db/platform-queries'
import type { NamespaceRow } from '../../platform/db/rows'
import { gitText } from '../../platform/git/git'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { resolveCommit } from '../../platform/git/refs'
import { forbidden, validationFailed } from '../../platform/http/errors'
import { badgeEntity, badgePreviewEntity, type RenderedUrls } from './entity'
import { canAdminGroupBadges, canAdminProjectBadges } from './policy'
import {
  deleteBadgeRow,
  insertBadge,
  projectsOfGroupByCreation,
  updateBadgeRow,
  type BadgeFields,
  type BadgeRow,
} from './queries'
import { isHttpUrl } from '../../platform/text/urls'

/** Where badges belong: a project (which also shows its groups' badges) or a group. */
export type BadgeSource =
  | { readonly kind: 'project'; readonly project: ProjectWithNamespaceRow }
  | { readonly kind: 'group'; readonly group: NamespaceRow }

/** A badge write's fields as sent: absent ones keep their value on an update. */
export interface BadgeParams {
  readonly name?: string
  readonly linkUrl?: string
  readonly imageUrl?: string
}

const PLACEHOLDER = /%\{([a-z_]+)\}/g

/** Refuses a badge write by anyone but a Maintainer of the project or an Owner of the group. */
export function assertMayAdminBadges(caller: Caller, source: BadgeSource): void {
  const allowed =
    source.kind === 'project'
      ? canAdminProjectBadges(caller.perms, source.project)
      : canAdminGroupBadges(caller.perms, source.group.id)
  if (!allowed) throw forbidden()
}

/**
 * GitLab's badge URL validation: present, and an http(s) URL once its placeholders are filled
 * (a placeholder stands for a value of the project, so any is accepted where it stands).
 */
function validated(fields: BadgeFields): BadgeFields {
  const errors: Record<string, string[]> = {}
  for (const [key, url] of [
    ['link_url', fields.linkUrl],
    ['image_url', fields.imageUrl],
  ] as const) {
    if (url.trim() === '') errors[key] = ["can't be blank"]
    else if (!isHttpUrl(url.replace(PLACEHOLDER, 'x'))) errors[key] = ['must be a valid URL']
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  return fields
}

/**
 * The project whose values fill a source's placeholders: the project itself, or the group's first
 * project by creation among those the caller may read (GitLab's GroupProjectsFinder for the
 * current user), so a private project's path never shows to a non-member; none: the URLs are
 * shown as stored, as GitLab does.
 */
function renderingProject(caller: Caller, source: BadgeSource): ProjectWithNamespaceRow | null {
  if (source.kind === 'project') return source.project
  for (const project of projectsOfGroupByCreation(caller.db, source.group.id))
    if (caller.perms.canReadProject(project)) return project
  return null
}

/** The repository's latest tag by creation date, or '' when it has none. */
async function latestTag(gitDir: string): Promise<string> {
  const out = await gitText(
    ['for-each-ref', '--sort=-creatordate', '--count=1', '--format=%(refname:short)', 'refs/tags'],
    {
      gitDir,
    },
  )
  return out.trim()
}

/**
 * GitLab's badge placeholders for a project. The commit and the latest tag are read from the
 * repository only when a URL asks for them; a missing value renders empty.
 */
async function placeholderValues(
  caller: Caller,
  project: ProjectWithNamespaceRow,
  urls: readonly string[],
): Promise<Readonly<Record<string, string>>> {
  const asks = (name: string): boolean => urls.some((u) => u.includes(`%{${name}}`))
  const gitDir = projectGitDir(caller.ctx, project)
  const hasRepo = repoExists(gitDir)
  const branch = project.default_branch ?? ''
  const host = new URL(caller.baseUrl).hostname
  return {
    project_path: `${project.ns_full_path}/${project.path}`,
    project_title: project.name,
    project_name: project.path,
    project_id: String(project.id),
    project_namespace: project.ns_full_path,
    group_name: project.ns_kind === 'group' ? project.ns_full_path.split('/')[0] : '',
    gitlab_server: host,
    // Burrow Server serves Pages from its own host.
    gitlab_pages_domain: host,
    default_branch: branch,
    commit_sha: hasRepo && branch !== '' && asks('commit_sha') ? ((await resolveCommit(gitDir, branch)) ?? '') : '',
    latest_tag: hasRepo && asks('latest_tag') ? await latestTag(gitDir) : '',
  }
}

/** Fills in the badges' placeholders for their source, in order. */
async function renderAll(
  caller: Caller,
  source: BadgeSource,
  badges: readonly { readonly name: string | null; readonly linkUrl: string; readonly imageUrl: string }[],
): Promise<RenderedUrls[]> {
  const project = renderingProject(caller, source)
  const values =
    project === null
      ? null
      : await placeholderValues(
          caller,
          project,
          badges.flatMap((b) => [b.linkUrl, b.imageUrl]),
        )
  const fill = (url: string): string =>
    values === null ? url : url.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole)
  return badges.map((b) => ({
    name: b.name,
    link_url: b.linkUrl,
    image_url: b.imageUrl,
    rendered_link_url: fill(b.linkUrl),
    rendered_image_url: fill(b.imageUrl),
  }))
}

const fieldsOf = (row: BadgeRow): BadgeFields => ({ name: row.name, linkUrl: row.link_url, imageUrl: row.image_url })

/** Badges as GitLab's Badge entity, rendered for their source. */
export async function presentBadges(caller: Caller, source: BadgeSource, rows: readonly BadgeRow[]): Promise<Badge[]> {
  const urls = await renderAll(caller, source, rows.map(fieldsOf))
  return rows.map((row, i) => badgeEntity(row, urls[i]))
}

/** GitLab's badge preview: the URLs as the source would render them, nothing stored. */
export async function previewBadge(
  caller: Caller,
  source: BadgeSource,
  params: { readonly linkUrl: string; readonly imageUrl: string },
): Promise<BadgePreview> {
  assertMayAdminBadges(caller, source)
  const fields = validated({ name: null, ...params })
  return badgePreviewEntity((await renderAll(caller, source, [fields]))[0])
}

/** Adds a badge to the project or group. */
export function createBadge(
  caller: Caller,
  source: BadgeSource,
  params: { readonly name?: string; readonly linkUrl: string; readonly imageUrl: string },
): BadgeRow {
  assertMayAdminBadges(caller, source)
  const fields = validated({ name: params.name ?? null, linkUrl: params.linkUrl, imageUrl: params.imageUrl })
  const owner =
    source.kind === 'project' ? { project: source.project.id, group: null } : { project: null, group: source.group.id }
  return insertBadge(caller.db, owner, fields, caller.clock().toISOString())
}

/** Changes the fields sent of one of the source's own badges. */
export function updateBadge(caller: Caller, source: BadgeSource, badge: BadgeRow, params: BadgeParams): BadgeRow {
  assertMayAdminBadges(caller, source)
  const fields = validated({
    name: params.name ?? badge.name,
    linkUrl: params.linkUrl ?? badge.link_url,
    imageUrl: params.imageUrl ?? badge.image_url,
  })
  return updateBadgeRow(caller.db, badge.id, fields, caller.clock().toISOString())
}

/** Removes one of the source's own badges. */
export function deleteBadge(caller: Caller, source: BadgeSource, badge: BadgeRow): void {
  assertMayAdminBadges(caller, source)
  deleteBadgeRow(caller.db, badge.id)
}
