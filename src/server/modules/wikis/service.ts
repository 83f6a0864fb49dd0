import { randomBytes } from 'node:crypto'
import type { WikiAttachment, WikiPage, WikiPageBasic } from '../../../shared/api/wiki'
import { signedInUser, type Caller } from '../../platform/caller'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { filePathProblem, isValidRef } from '../../platform/git/git'
import { resolveCommit } from '../../platform/git/refs'
import { isRecordableName, RefMovedError, type CommitAction, type Identity } from '../../platform/git/write-commit'
import { apiMessage, conflict, forbidden, notFound, validationFailed } from '../../platform/http/errors'
import { assertRepositoryWritable } from '../storage-moves'
import { wikiAttachmentEntity, wikiPageBasicEntity, wikiPageEntity } from './entity'
import { pathOf, renamedSlug, slugOfTitle, titleOfSlug, UPLOADS_DIR, type WikiFormat } from './pages'
import { canDeleteWikiPagesWith, canWriteWikiWith } from './policy'
import {
  commitToWiki,
  ensureWikiRepo,
  pageContents,
  pagesAt,
  wikiGitDir,
  wikiHead,
  type StoredPage,
} from './repository'

type WikiProject = Pick<ProjectRow, 'id' | 'visibility' | 'settings' | 'repository_storage'>

/** What a new page is made of. */
export interface NewPageParams {
  readonly title: string
  readonly content: string
  readonly format: WikiFormat
}

/** What an update changes; absent fields stay. */
export interface PageUpdateParams {
  readonly title?: string
  readonly content?: string
  readonly format?: WikiFormat
}

/** A file to commit under `uploads/`. */
export interface AttachmentParams {
  readonly fileName: string
  readonly content: Buffer
  /** The branch to commit on; the wiki's own when absent. */
  readonly branch?: string
}

/** A file name's length limit in bytes (most file systems'), for each part of a page's path. */
const NAME_BYTES = 255

const PAGE_NOT_FOUND = 'Wiki Page'

/** The wiki's pages at its HEAD (none before the first page), with their contents when asked. */
export async function listWikiPages(
  caller: Caller,
  project: WikiProject,
  withContent: boolean,
): Promise<WikiPageBasic[] | WikiPage[]> {
  const gitDir = wikiGitDir(caller.ctx, project)
  const { sha } = await wikiHead(gitDir)
  if (sha === null) return []
  const pages = await pagesAt(gitDir, sha)
  if (!withContent) return pages.map(wikiPageBasicEntity)
  const contents = await pageContents(gitDir, pages)
  return pages.map((p) => wikiPageEntity(p, contents.get(p.oid) ?? ''))
}

/** The page of `slug` at the wiki's HEAD, or at `version` (a commit); 404 when there is none. */
async function storedPage(
  caller: Caller,
  project: WikiProject,
  slug: string,
  version?: string,
): Promise<{ readonly page: StoredPage; readonly content: string }> {
  const gitDir = wikiGitDir(caller.ctx, project)
  const head = await wikiHead(gitDir)
  const sha = version === undefined ? head.sha : isValidRef(version) ? await resolveCommit(gitDir, version) : null
  if (sha === null) throw notFound(PAGE_NOT_FOUND)
  const page = (await pagesAt(gitDir, sha)).find((p) => p.slug === slug)
  if (!page) throw notFound(PAGE_NOT_FOUND)
  const contents = await pageContents(gitDir, [page])
  return { page, content: contents.get(page.oid) ?? '' }
}

/** One page (GitLab's WikiPage), as written or rendered. */
export async function getWikiPage(
  caller: Caller,
  project: WikiProject,
  slug: string,
  options: { readonly version?: string; readonly renderHtml?: boolean } = {},
): Promise<WikiPage> {
  const { page, content } = await storedPage(caller, project, slug, options.version)
  return wikiPageEntity(page, content, options.renderHtml)
}

/** Who a wiki commit is by: the caller, by username when git cannot record their name. */
function identityOf(user: UserRow): Identity {
  return { name: isRecordableName(user.name) ? user.name : user.username, email: user.email }
}

/** 400 with the model's errors for a page path a title cannot make. */
function checkPagePath(slug: string, format: WikiFormat): void {
  const path = pathOf(slug, format)
  if (slug === '' || slug.split('/').some((part) => part === '')) throw validationFailed({ title: ["can't be blank"] })
  if (path.split('/').some((part) => Buffer.byteLength(part) > NAME_BYTES))
    throw validationFailed({ title: [`is too long (maximum is ${NAME_BYTES} characters)`] })
  if (filePathProblem(path) !== null || path.startsWith(`${UPLOADS_DIR}/`))
    throw validationFailed({ title: ['is invalid'] })
}

function checkContent(content: string): void {
  if (content.trim() === '') throw validationFailed({ content: ["can't be blank"] })
  if (content.includes('\0')) throw validationFailed({ content: ['is invalid'] })
}

/**
 * Commits a change of the wiki as the caller, on its HEAD branch, checked against what the caller
 * read: a write that landed meanwhile answers 409 rather than being overwritten.
 */
async function commit(
  caller: Caller,
  project: WikiProject,
  build: (pages: readonly StoredPage[]) => { readonly actions: CommitAction[]; readonly message: string },
): Promise<void> {
  assertRepositoryWritable(caller.db, project)
  const user = signedInUser(caller)
  const gitDir = await ensureWikiRepo(caller.ctx, project)
  const head = await wikiHead(gitDir)
  const pages = head.sha === null ? [] : await pagesAt(gitDir, head.sha)
  const { actions, message } = build(pages)
  try {
    await commitToWiki(gitDir, head, actions, message, identityOf(user))
  } catch (error) {
    if (error instanceof RefMovedError) throw conflict('The wiki changed while the page was being saved. Try again.')
    throw error
  }
}

function requireWrite(caller: Caller, project: WikiProject): void {
  if (!canWriteWikiWith(caller.perms, project)) throw forbidden()
}

/** GitLab's duplicate-page validation error. */
const duplicate = () => validationFailed({ base: ['Duplicate page: A page with that title already exists'] })

/** Creates a page from its title (GitLab's WikiPages::CreateService): Developers; 400 for a title already taken. */
export async function createWikiPage(caller: Caller, project: WikiProject, params: NewPageParams): Promise<WikiPage> {
  requireWrite(caller, project)
  const slug = slugOfTitle(params.title)
  checkPagePath(slug, params.format)
  checkContent(params.content)
  const user = signedInUser(caller)
  await commit(caller, project, (pages) => {
    if (pages.some((p) => p.slug === slug)) throw duplicate()
    return {
      actions: [{ action: 'create', filePath: pathOf(slug, params.format), content: Buffer.from(params.content) }],
      message: `${user.username} created page: ${titleOfSlug(slug)}`,
    }
  })
  return getWikiPage(caller, project, slug)
}

/**
 * Changes a page's content, title or format (GitLab's WikiPages::UpdateService): a new title or
 * format moves the file (a plain title keeps its directory); 404 for a page that is not there.
 */
export async function updateWikiPage(
  caller: Caller,
  project: WikiProject,
  slug: string,
  params: PageUpdateParams,
): Promise<WikiPage> {
  requireWrite(caller, project)
  const { page, content } = await storedPage(caller, project, slug)
  const nextSlug = params.title === undefined ? page.slug : renamedSlug(page.slug, params.title)
  const format = params.format ?? page.format
  checkPagePath(nextSlug, format)
  if (params.content !== undefined) checkContent(params.content)
  const nextPath = pathOf(nextSlug, format)
  const user = signedInUser(caller)
  await commit(caller, project, (pages) => {
    const current = pages.find((p) => p.slug === page.slug)
    if (!current) throw notFound(PAGE_NOT_FOUND)
    if (nextSlug !== page.slug && pages.some((p) => p.slug === nextSlug)) throw duplicate()
    const body = Buffer.from(params.content ?? content)
    const action: CommitAction =
      nextPath === current.path
        ? { action: 'update', filePath: current.path, content: body }
        : { action: 'move', filePath: nextPath, previousPath: current.path, content: body }
    return { actions: [action], message: `${user.username} updated page: ${titleOfSlug(nextSlug)}` }
  })
  return getWikiPage(caller, project, nextSlug)
}

/** Deletes a page (GitLab's WikiPages::DestroyService): Maintainers; 404 for a page that is not there. */
export async function deleteWikiPage(caller: Caller, project: WikiProject, slug: string): Promise<void> {
  if (!canDeleteWikiPagesWith(caller.perms, project)) throw forbidden()
  const { page } = await storedPage(caller, project, slug)
  const user = signedInUser(caller)
  await commit(caller, project, (pages) => {
    const current = pages.find((p) => p.slug === page.slug)
    if (!current) throw notFound(PAGE_NOT_FOUND)
    return {
      actions: [{ action: 'delete', filePath: current.path }],
      message: `${user.username} deleted page: ${titleOfSlug(page.slug)}`,
    }
  })
}

/**
 * Commits an attachment under `uploads/<32 hex>/` (GitLab's Wikis::CreateAttachmentService):
 * Developers; at most the instance's `max_attachment_size` (MB); only the wiki's own branch.
 */
export async function createWikiAttachment(
  caller: Caller,
  project: WikiProject,
  params: AttachmentParams,
): Promise<WikiAttachment> {
  requireWrite(caller, project)
  const fileName = params.fileName.replace(/^.*[\\/]/, '')
  const maxBytes = Number(caller.ctx.settings.get('max_attachment_size')) * 1024 * 1024
  if (params.content.length > maxBytes) throw apiMessage(400, 'File is too big')
  const filePath = `${UPLOADS_DIR}/${randomBytes(16).toString('hex')}/${fileName}`
  if (fileName === '' || filePathProblem(filePath) !== null) throw apiMessage(400, 'The file name is invalid')
  const head = await wikiHead(wikiGitDir(caller.ctx, project))
  const branch = head.ref.replace(/^refs\/heads\//, '')
  if (params.branch !== undefined && params.branch !== branch)
    throw apiMessage(400, `Attachments can only be committed to the wiki's branch ${branch}`)
  await commit(caller, project, () => ({
    actions: [{ action: 'create', filePath, content: params.content }],
    message: `Upload attachment ${fileName}`,
  }))
  return wikiAttachmentEntity(fileName, filePath, branch)
}
