import type { Release, ReleaseLink, ReleaseLinkType } from '../../../shared/api/release'
import type { TagRelease } from '../../../shared/api/repository'
import type { ProjectRow } from '../../platform/db/rows'
import { signedInUser, type Caller } from '../../platform/caller'
import { logCommits, type GitCommit } from '../../platform/git/commits'
import { ZERO_SHA } from '../../platform/git/git'
import { onPush, type PushContext } from '../../platform/git/push-listeners'
import { findTag } from '../../platform/git/tags'
import type { ServerContext } from '../../platform/context'
import {
  apiMessage,
  conflict,
  forbidden,
  noneGiven,
  notFound,
  unprocessable,
  validationFailed,
} from '../../platform/http/errors'
import { canReadCodeWith, type CodeProject } from '../../platform/http/repository'
import { releaseChanged } from './events'
import { exceeds, tooLong } from '../../platform/text/limits'
import { createProjectTag } from '../tags'
import { userRef, usersByIds } from '../users'
import { releaseEntity, releaseLinkEntity, tagReleaseEntity, type ReleaseView } from './entity'
import { canDeleteReleases, canReadReleases, canWriteReleases } from './policy'
import {
  deleteLinkRow,
  deleteReleaseOfTag,
  deleteReleaseRow,
  findReleaseByTag,
  insertLink,
  insertRelease,
  linksOfReleases,
  releasesOfTags,
  milestonesByTitle,
  milestonesOfOwner,
  milestonesOfReleases,
  setReleaseMilestones,
  takenLinkFields,
  touchRelease,
  updateLinkRow,
  updateReleaseRow,
  type LinkFields,
  type ReleaseChanges,
  type ReleaseLinkRow,
  type ReleaseRow,
} from './queries'

/** GitLab's length limits of a release (its name as a title, its notes as MAX_TEXT_SIZE_LIMIT). */
const LIMITS = { name: 255, description: 1_000_000 } as const

/** An asset link as a client sends it. */
export interface LinkParams {
  readonly name?: string
  readonly url?: string
  /** `direct_asset_path` (or the deprecated `filepath`): absolute, as GitLab stores it (`/bin/app`). */
  readonly directAssetPath?: string
  readonly linkType?: ReleaseLinkType
}

/** Milestones to associate, by title or by id (never both). */
export type MilestoneChoice = { readonly titles: readonly string[] } | { readonly ids: readonly number[] }

/** What a release is created from. */
export interface NewReleaseParams {
  readonly tagName: string
  readonly tagMessage?: string
  readonly name?: string
  readonly description?: string
  readonly ref?: string
  readonly milestones?: MilestoneChoice
  readonly links?: readonly LinkParams[]
  readonly releasedAt?: string
}

/** What an update changes; absent fields stay. */
export interface ReleaseUpdateParams {
  readonly name?: string
  readonly description?: string
  readonly releasedAt?: string
  readonly milestones?: MilestoneChoice
}

/** Options of a presented release. */
export interface PresentOptions {
  readonly includeHtml?: boolean
}

/** The view of a project's releases that `caller` has. */
function viewOf(caller: Caller, repo: CodeProject, options: PresentOptions): ReleaseView {
  return {
    baseUrl: caller.baseUrl,
    fullPath: `${repo.project.ns_full_path}/${repo.project.path}`,
    projectPath: repo.project.path,
    canReadCode: canReadCodeWith(caller.perms, repo.project),
    canEdit: canWriteReleases(caller.perms, repo.project),
    includeHtml: options.includeHtml === true,
    now: caller.clock().toISOString(),
  }
}

/** The commits releases were made at, read in one `git log`; a commit git no longer has is left out. */
async function commitsOf(repo: CodeProject, rows: readonly ReleaseRow[]): Promise<Map<string, GitCommit>> {
  const shas = [...new Set(rows.map((r) => r.sha).filter((sha): sha is string => sha !== null))]
  if (shas.length === 0 || !repo.exists) return new Map()
  try {
    const commits = await logCommits(repo.gitDir, ['--no-walk=unsorted', '--end-of-options', ...shas])
    return new Map(commits.map((c) => [c.id, c]))
  } catch {
    return new Map()
  }
}

/** GitLab's Release entities for a page of one project's releases (one query per kind of part). */
export async function presentReleases(
  caller: Caller,
  repo: CodeProject,
  rows: readonly ReleaseRow[],
  options: PresentOptions = {},
): Promise<Release[]> {
  const view = viewOf(caller, repo, options)
  const ids = rows.map((r) => r.id)
  const links = linksOfReleases(caller.db, ids)
  const milestones = milestonesOfReleases(caller.db, ids)
  const authors = usersByIds(caller.db, [...new Set(rows.map((r) => r.author_id).filter((id) => id !== null))])
  const commits = view.canReadCode ? await commitsOf(repo, rows) : new Map<string, GitCommit>()
  return rows.map((row) => {
    const author = row.author_id !== null ? authors.get(row.author_id) : undefined
    return releaseEntity(view, row, {
      author: author ? userRef(author, caller.baseUrl) : undefined,
      commit: row.sha !== null ? commits.get(row.sha) : undefined,
      links: links.get(row.id) ?? [],
      milestones: milestones.get(row.id) ?? [],
    })
  })
}

/** One release entity. */
export async function presentRelease(
  caller: Caller,
  repo: CodeProject,
  row: ReleaseRow,
  options: PresentOptions = {},
): Promise<Release> {
  return (await presentReleases(caller, repo, [row], options))[0]
}

/** A link entity of the release. */
export function presentLink(caller: Caller, repo: CodeProject, release: ReleaseRow, link: ReleaseLinkRow): ReleaseLink {
  return releaseLinkEntity(viewOf(caller, repo, {}), release.tag, link)
}

/** The release of `tag`, or 404 with GitLab's message for the releases and links APIs. */
export function releaseOfTag(caller: Caller, repo: CodeProject, tag: string): ReleaseRow {
  const release = findReleaseByTag(caller.db, repo.project.id, tag)
  if (!release) throw notFound()
  return release
}

function requireWrite(caller: Caller, repo: CodeProject): void {
  if (!canWriteReleases(caller.perms, repo.project)) throw forbidden()
}

/** The groups whose milestones a release of the project may ship: the project's own group (GitLab's rule). */
function milestoneGroups(repo: CodeProject): number[] {
  return repo.project.ns_kind === 'group' ? [repo.project.namespace_id] : []
}

/** Milestone ids for the choice: 400 naming the titles or ids the project does not have. */
function resolveMilestones(caller: Caller, repo: CodeProject, choice: MilestoneChoice): number[] {
  const groups = milestoneGroups(repo)
  if ('titles' in choice) {
    const titles = [...new Set(choice.titles)]
    const found = milestonesByTitle(caller.db, repo.project.id, groups, titles)
    const missing = titles.filter((t) => !found.has(t))
    if (missing.length > 0) throw apiMessage(400, `Milestone(s) not found: ${missing.join(', ')}`)
    return titles.map((t) => found.get(t) as number)
  }
  const ids = [...new Set(choice.ids)]
  const found = milestonesOfOwner(caller.db, repo.project.id, groups, ids)
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length > 0) throw apiMessage(400, `Milestone id(s) not found: ${missing.join(', ')}`)
  return ids
}

/** Length errors of a release's name and notes (Rails' validation messages). */
function lengthErrors(params: { readonly name?: string; readonly description?: string }): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  for (const field of ['name', 'description'] as const) {
    const value = params[field]
    if (value !== undefined && exceeds(value, LIMITS[field])) errors[field] = [tooLong(LIMITS[field])]
  }
  return errors
}

const URL_SCHEMES = new Set(['http:', 'https:', 'ftp:'])
/** GitLab's FILEPATH_REGEX: a relative path made absolute, no `//`, ending in a letter or digit. */
const FILEPATH = /^\/[^/](?!.*\/\/.*)[-.\w/]+[\da-zA-Z]+$/

function isAssetUrl(text: string): boolean {
  try {
    return URL_SCHEMES.has(new URL(text).protocol)
  } catch {
    return false
  }
}

/**
 * A direct asset path as given, blank as none. A path without its leading `/` is kept as it came,
 * so checkLink refuses it as GitLab's FILEPATH_REGEX does, rather than storing a path the client
 * did not send.
 */
function storedFilepath(path: string | undefined): string | null {
  if (path === undefined || path.trim() === '') return null
  return path
}

/**
 * A link checked as GitLab's Releases::Link model: name and URL present and unique in the release,
 * URL over http, https or ftp, direct asset path in GitLab's format and unique. Errors by field.
 */
function checkLink(
  caller: Caller,
  releaseId: number | null,
  link: LinkFields,
  exceptId: number,
  others: readonly LinkFields[] = [],
): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (field: string, message: string): void => void (errors[field] ??= []).push(message)
  if (link.name.trim() === '') add('name', "can't be blank")
  else if (exceeds(link.name, LIMITS.name)) add('name', tooLong(LIMITS.name))
  if (link.url.trim() === '') add('url', "can't be blank")
  else if (!isAssetUrl(link.url)) add('url', 'is blocked: Only allowed schemes are http, https, ftp')
  if (link.filepath !== null && !FILEPATH.test(link.filepath)) add('filepath', 'is in an invalid format')
  const taken =
    releaseId === null
      ? { name: false, url: false, filepath: false }
      : takenLinkFields(caller.db, releaseId, link, exceptId)
  if (taken.name || others.some((o) => o.name === link.name)) add('name', 'has already been taken')
  if (taken.url || others.some((o) => o.url === link.url)) add('url', 'has already been taken')
  if (link.filepath !== null && (taken.filepath || others.some((o) => o.filepath === link.filepath)))
    add('filepath', 'has already been taken')
  return errors
}

function linkFields(params: LinkParams, base?: ReleaseLinkRow): LinkFields {
  return {
    name: params.name ?? base?.name ?? '',
    url: params.url ?? base?.url ?? '',
    filepath: params.directAssetPath !== undefined ? storedFilepath(params.directAssetPath) : (base?.filepath ?? null),
    linkType: params.linkType ?? base?.link_type ?? 'other',
  }
}

/** The links of a new release, checked together: 400 with Rails' `Validation failed: …` message. */
function newReleaseLinks(caller: Caller, links: readonly LinkParams[]): LinkFields[] {
  const fields = links.map((l) => linkFields(l))
  const messages = fields.flatMap((link, n) =>
    Object.entries(checkLink(caller, null, link, -1, fields.slice(0, n))).flatMap(([field, list]) =>
      list.map((m) => `Links ${field} ${m}`),
    ),
  )
  if (messages.length > 0) throw apiMessage(400, `Validation failed: ${messages.join(', ')}`)
  return fields
}

/**
 * Creates a release (GitLab's Releases::CreateService): 409 when the tag has one, 422 `Ref is not
 * specified` when the tag does not exist and no ref says where to make it, then the tag is created
 * (annotated with `tagMessage`) as by the tags API. Milestones and links are checked before
 * anything is written; the release, its links and milestones are written in one transaction.
 */
export async function createRelease(caller: Caller, repo: CodeProject, params: NewReleaseParams): Promise<ReleaseRow> {
  requireWrite(caller, repo)
  const user = signedInUser(caller)
  if (findReleaseByTag(caller.db, repo.project.id, params.tagName)) throw conflict('Release already exists')
  const existing = repo.exists ? await findTag(repo.gitDir, params.tagName).catch(() => null) : null
  if (!existing && (params.ref === undefined || params.ref === '')) throw unprocessable('Ref is not specified')
  const errors = lengthErrors(params)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  const milestoneIds = params.milestones ? resolveMilestones(caller, repo, params.milestones) : []
  const links = newReleaseLinks(caller, params.links ?? [])
  const tag =
    existing ??
    (await createProjectTag(caller, repo, { name: params.tagName, ref: params.ref ?? '', message: params.tagMessage }))
  const now = caller.clock().toISOString()
  const created = caller.db.transaction(() => {
    // The tag was made outside the transaction: another request may have released it meanwhile.
    if (findReleaseByTag(caller.db, repo.project.id, params.tagName)) throw conflict('Release already exists')
    const release = insertRelease(caller.db, {
      projectId: repo.project.id,
      tag: params.tagName,
      name: params.name ?? params.tagName,
      description: params.description ?? null,
      authorId: user.id,
      sha: tag.commitId ?? tag.target,
      releasedAt: params.releasedAt ?? now,
      now,
    })
    for (const link of links) insertLink(caller.db, release.id, link, now)
    setReleaseMilestones(caller.db, release.id, milestoneIds)
    return release
  })()
  releaseChanged({ ctx: caller.ctx, release: created, action: 'create' })
  return created
}

/**
 * Updates a release (GitLab's Releases::UpdateService): 400 `params is empty` when nothing is
 * given; milestones are replaced by those named (`[]` removes them all).
 */
export function updateRelease(
  caller: Caller,
  repo: CodeProject,
  release: ReleaseRow,
  params: ReleaseUpdateParams,
): ReleaseRow {
  requireWrite(caller, repo)
  const changes: ReleaseChanges = {
    name: params.name,
    description: params.description,
    releasedAt: params.releasedAt,
  }
  if (Object.values(changes).every((v) => v === undefined) && params.milestones === undefined)
    throw apiMessage(400, 'params is empty')
  const errors = lengthErrors(params)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  const milestoneIds = params.milestones ? resolveMilestones(caller, repo, params.milestones) : undefined
  const now = caller.clock().toISOString()
  const updated = caller.db.transaction(() => {
    updateReleaseRow(caller.db, release.id, changes, now)
    if (milestoneIds) setReleaseMilestones(caller.db, release.id, milestoneIds)
    return findReleaseByTag(caller.db, repo.project.id, release.tag) as ReleaseRow
  })()
  releaseChanged({ ctx: caller.ctx, release: updated, action: 'update' })
  return updated
}

/** Deletes a release, never its tag (GitLab's Releases::DestroyService): Maintainers. */
export function deleteRelease(caller: Caller, repo: CodeProject, release: ReleaseRow): void {
  if (!canDeleteReleases(caller.perms, repo.project)) throw forbidden()
  deleteReleaseRow(caller.db, release.id)
  releaseChanged({ ctx: caller.ctx, release, action: 'delete' })
}

/** Adds an asset link to a release: 400 with the model's errors by field. */
export function createLink(caller: Caller, repo: CodeProject, release: ReleaseRow, params: LinkParams): ReleaseLinkRow {
  requireWrite(caller, repo)
  const fields = linkFields(params)
  const errors = checkLink(caller, release.id, fields, -1)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  const now = caller.clock().toISOString()
  return caller.db.transaction(() => {
    touchRelease(caller.db, release.id, now)
    return insertLink(caller.db, release.id, fields, now)
  })()
}

/** Changes an asset link: 400 `name, url are missing…` when neither is given, else as createLink. */
export function updateLink(
  caller: Caller,
  repo: CodeProject,
  release: ReleaseRow,
  link: ReleaseLinkRow,
  params: LinkParams,
): ReleaseLinkRow {
  requireWrite(caller, repo)
  if (params.name === undefined && params.url === undefined) throw noneGiven(['name', 'url'])
  const fields = linkFields(params, link)
  const errors = checkLink(caller, release.id, fields, link.id)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  const now = caller.clock().toISOString()
  return caller.db.transaction(() => {
    touchRelease(caller.db, release.id, now)
    return updateLinkRow(caller.db, link.id, fields, now)
  })()
}

/** Removes an asset link. */
export function deleteLink(caller: Caller, repo: CodeProject, release: ReleaseRow, link: ReleaseLinkRow): void {
  requireWrite(caller, repo)
  caller.db.transaction(() => {
    touchRelease(caller.db, release.id, caller.clock().toISOString())
    deleteLinkRow(caller.db, link.id)
  })()
}

/** What each of these tags shows of its release (GitLab's TagRelease), for callers who may read releases. */
export function tagReleases(
  caller: Caller,
  project: Pick<ProjectRow, 'id' | 'visibility' | 'settings'>,
  tags: readonly string[],
): Map<string, TagRelease> {
  if (!canReadReleases(caller.perms, project)) return new Map()
  const rows = releasesOfTags(caller.db, project.id, tags)
  return new Map([...rows].map(([tag, row]) => [tag, tagReleaseEntity(row)]))
}

/** Whether the caller may read the project's releases (the routes answer 403 otherwise). */
export function mayReadReleases(caller: Caller, repo: CodeProject): boolean {
  return canReadReleases(caller.perms, repo.project)
}

/** A deleted tag takes its release with it, whichever way it was deleted (API or push). */
function dropReleasesOfDeletedTags(push: PushContext): void {
  for (const update of push.updates) {
    if (update.newSha === ZERO_SHA && update.ref.startsWith('refs/tags/'))
      deleteReleaseOfTag(push.ctx.db, push.project.id, update.ref.slice('refs/tags/'.length))
  }
}

/** Subscribes this server's releases to its pushes. */
export function listenForTagDeletions(ctx: ServerContext): void {
  onPush(ctx, dropReleasesOfDeletedTags)
}
