import { existsSync, mkdirSync } from 'node:fs'
import { cp, rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Caller } from '../../platform/caller'
import type { ServerContext } from '../../platform/context'
import type { Db } from '../../platform/db/connection'
import { findNamespaceById, findProjectById } from '../namespaces'
import type { NamespaceRow, ProjectRow } from '../../platform/db/rows'
import {
  findStorageMove,
  groupIdsOnStorage,
  hasMoveInProgress,
  insertStorageMove,
  isProjectReadOnly,
  moveContainer,
  movedSnippets,
  setProjectReadOnly,
  setStorageMoveState,
  snippetIdsOnStorage,
  snippetStorage,
  switchGroupStorage,
  switchProjectStorage,
  unfinishedStorageMoves,
  writableProjectIdsOnStorage,
  type StorageMoveKind,
  type StorageMoveRow,
} from './queries'
import { findSnippetById, type SnippetRow } from '../snippets'
import { findUserById, usersByIds } from '../users'
import type { MovedSnippet } from './entity'
import { gitText } from '../../platform/git/git'
import { apiMessage, validationFailed } from '../../platform/http/errors'
import { auditAuthorOf, recordAuditBy, type AuditAuthor, type AuditEntityType } from '../audit-events'
import { backgroundQueue } from '../../platform/background'

/** What pushes and API writes are told while a move holds the repository (GitLab's wording). */
export const READ_ONLY_MESSAGE = 'The repository is temporarily read-only. Please try again later.'

/**
 * Refuses an API write to a project's repository (files, commits, branches, tags, merges) while
 * a storage move holds it read-only: 400 with GitLab's message, as its API answers a write the
 * pre-receive check refused. Reads the flag afresh: the row the request loaded may be older.
 */
export function assertRepositoryWritable(db: Db, project: Pick<ProjectRow, 'id'>): void {
  if (isProjectReadOnly(db, project.id)) throw apiMessage(400, READ_ONLY_MESSAGE)
}

/**
 * Refuses a change to a snippet's files while a storage move of the snippet is under way (the
 * snippet's repository is read-only then, as a project's is). Its title, description and
 * visibility are not in the repository and stay editable.
 */
export function assertSnippetRepositoryWritable(db: Db, snippetId: number): void {
  if (hasMoveInProgress(db, 'snippet', snippetId)) throw apiMessage(400, READ_ONLY_MESSAGE)
}

const QUEUE = 'repository-storage-moves'

/** The storage a group's wiki is on; a name no longer configured counts as the default storage. */
export function groupStorage(ctx: ServerContext, group: NamespaceRow): string {
  return ctx.storages.includes(group.repository_storage) ? group.repository_storage : ctx.storages[0]
}

/** The storage a move would pick when the caller names none: the first other configured storage. */
function pickDestination(ctx: ServerContext, source: string): string {
  return ctx.storages.find((s) => s !== source) ?? source
}

/** GitLab's RepositoryStorageMovable validations; errors keyed like its model errors. */
function moveErrors(
  ctx: ServerContext,
  kind: StorageMoveKind,
  source: string,
  destination: string,
  inProgress: boolean,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  if (!ctx.storages.includes(source)) errors.source_storage_name = ['is not included in the list']
  if (destination === '') errors.destination_storage_name = ["can't be blank"]
  else if (!ctx.storages.includes(destination)) errors.destination_storage_name = ['is not included in the list']
  if (inProgress) errors[kind] = ['is read-only']
  return errors
}

interface MoveTarget {
  readonly kind: StorageMoveKind
  readonly id: number
  readonly source: string
  /** Full path or title that audit events name the container by. */
  readonly label: string
  readonly projectId: number | null
}

function projectTarget(ctx: ServerContext, project: ProjectRow): MoveTarget {
  const ns = findNamespaceById(ctx.db, project.namespace_id)
  return {
    kind: 'project',
    id: project.id,
    source: project.repository_storage,
    label: `${ns?.full_path ?? ''}/${project.path}`,
    projectId: project.id,
  }
}

function snippetTarget(ctx: ServerContext, snippet: SnippetRow): MoveTarget {
  return {
    kind: 'snippet',
    id: snippet.id,
    source: snippetStorage(ctx.db, snippet.id, ctx.storages[0]),
    label: snippet.title,
    projectId: snippet.project_id,
  }
}

function groupTarget(ctx: ServerContext, group: NamespaceRow): MoveTarget {
  return { kind: 'group', id: group.id, source: groupStorage(ctx, group), label: group.full_path, projectId: null }
}

/**
 * Inserts the move as `scheduled`, makes a project's repository read-only in the same
 * transaction (GitLab's initial → scheduled transition), records the audit event (GitLab keeps no
 * activity event for moves), and queues the copy. Throws GitLab's 400 validation body when the move is invalid.
 */
function schedule(caller: Caller, target: MoveTarget, destination: string | undefined): StorageMoveRow {
  const { ctx, db } = caller
  const dest = destination ?? pickDestination(ctx, target.source)
  const inProgress =
    target.kind === 'project' ? isProjectReadOnly(db, target.id) : hasMoveInProgress(db, target.kind, target.id)
  const errors = moveErrors(ctx, target.kind, target.source, dest, inProgress)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  const author = auditAuthorOf(caller)
  const move = db.transaction(() => {
    const row = insertStorageMove(db, target.kind, target.id, target.source, dest, caller.user?.id ?? null)
    if (target.kind === 'project') setProjectReadOnly(db, target.id, true)
    recordMoveAudit(db, author, target, `Scheduled a repository storage move from ${target.source} to ${dest}`, row)
    return row
  })()
  enqueueMove(ctx, move.id)
  return move
}

/** GitLab's model of each kind of move, the target type its audit events name. */
const MOVE_MODEL: Readonly<Record<StorageMoveKind, string>> = {
  project: 'Projects::RepositoryStorageMove',
  snippet: 'Snippets::RepositoryStorageMove',
  group: 'Groups::RepositoryStorageMove',
}

function recordMoveAudit(db: Db, author: AuditAuthor, target: MoveTarget, message: string, move: StorageMoveRow): void {
  let entityType: AuditEntityType = 'User'
  let entityId = author.id
  let entityPath = author.name
  if (target.kind === 'project') [entityType, entityId, entityPath] = ['Project', target.id, target.label]
  else if (target.kind === 'group') [entityType, entityId, entityPath] = ['Group', target.id, target.label]
  else if (target.projectId !== null) {
    const project = findProjectById(db, target.projectId)
    const ns = project ? findNamespaceById(db, project.namespace_id) : undefined
    ;[entityType, entityId, entityPath] = ['Project', target.projectId, `${ns?.full_path ?? ''}/${project?.path ?? ''}`]
  }
  recordAuditBy(db, author, {
    entityType,
    entityId,
    entityPath,
    targetId: move.id,
    targetType: MOVE_MODEL[target.kind],
    targetDetails: target.label,
    change: {
      custom_message: message,
      source_storage_name: move.source_storage_name,
      destination_storage_name: move.destination_storage_name,
    },
  })
}

/** `POST /projects/:id/repository_storage_moves` (and a `repository_storage` change of PUT /projects/:id). */
export function scheduleProjectMove(
  caller: Caller,
  project: ProjectRow,
  destination: string | undefined,
): StorageMoveRow {
  return schedule(caller, projectTarget(caller.ctx, project), destination)
}

/** `POST /snippets/:id/repository_storage_moves`. */
export function scheduleSnippetMove(
  caller: Caller,
  snippet: SnippetRow,
  destination: string | undefined,
): StorageMoveRow {
  return schedule(caller, snippetTarget(caller.ctx, snippet), destination)
}

/** `POST /groups/:id/repository_storage_moves`. */
export function scheduleGroupMove(
  caller: Caller,
  group: NamespaceRow,
  destination: string | undefined,
): StorageMoveRow {
  return schedule(caller, groupTarget(caller.ctx, group), destination)
}

/**
 * The bulk endpoints: schedules a move for everything of `kind` on `source`, to `destination` or,
 * when none is named, where a single move would pick. Containers whose move cannot be scheduled
 * (one is already under way) are skipped, as GitLab's bulk service skips them. Returns how many
 * were scheduled.
 */
export function scheduleBulkMoves(
  caller: Caller,
  kind: StorageMoveKind,
  source: string,
  destination: string | undefined,
): number {
  const { ctx, db } = caller
  let ids: number[]
  if (kind === 'project') ids = writableProjectIdsOnStorage(db, source)
  else if (kind === 'snippet') ids = snippetIdsOnStorage(db, source, ctx.storages[0])
  else ids = groupIdsOnStorage(db, source, ctx.storages)
  let scheduled = 0
  for (const id of ids) {
    const target = targetOf(ctx, kind, id)
    if (!target) continue
    try {
      schedule(caller, target, destination)
      scheduled += 1
    } catch {
      // Skipped: already moving, as GitLab's bulk scheduling skips invalid moves.
    }
  }
  return scheduled
}

/** The snippets of a page of moves with their authors, by snippet id (deleted snippets are missing). */
export function snippetsOfMoves(db: Db, ids: readonly number[]): Map<number, MovedSnippet> {
  const snippets = [...movedSnippets(db, ids).values()]
  const authors = usersByIds(
    db,
    snippets.map((s) => s.author_id),
  )
  return new Map(snippets.map((s) => [s.id, { ...s, author: authors.get(s.author_id) }]))
}

function enqueueMove(ctx: ServerContext, moveId: number): void {
  backgroundQueue(ctx, QUEUE).push(() => runMove(ctx, moveId))
}

/**
 * Queues the moves a previous run of the server left unfinished (repositories stay read-only
 * meanwhile): a copy that had started starts again from scratch; one that had replicated only
 * has its source left to delete.
 */
export function resumeStorageMoves(ctx: ServerContext): void {
  for (const move of unfinishedStorageMoves(ctx.db)) enqueueMove(ctx, move.id)
}

/** Resolves when no storage move is running or waiting. */
export function storageMovesIdle(ctx: ServerContext): Promise<void> {
  return backgroundQueue(ctx, QUEUE).idle()
}

/** Keeps scheduled moves from starting until the returned release is called. */
export function holdStorageMoves(ctx: ServerContext): () => void {
  return backgroundQueue(ctx, QUEUE).hold()
}

/** Stops taking moves and waits for the running one (the server is closing). */
export function stopStorageMoves(ctx: ServerContext): Promise<void> {
  return backgroundQueue(ctx, QUEUE).close()
}

type RepoKind = 'project' | 'wiki' | 'snippet' | 'group'

/** The bare repositories a move carries: a project's code and wiki, a snippet's, a group's wiki. */
function repositoriesOf(kind: StorageMoveKind, id: number): { kind: RepoKind; id: number }[] {
  if (kind === 'project')
    return [
      { kind: 'project', id },
      { kind: 'wiki', id },
    ]
  return [{ kind, id }]
}

function repoPathIn(ctx: ServerContext, storage: string, repo: { kind: RepoKind; id: number }): string {
  return ctx.repos.repoPath(storage, repo.kind, repo.id)
}

/** Refs and HEAD of a bare repository, as one comparable text. */
async function refState(gitDir: string): Promise<string> {
  const refs = await gitText(['for-each-ref', '--format=%(objectname) %(refname)'], { gitDir })
  const head = await gitText(['symbolic-ref', '-q', 'HEAD'], { gitDir }).catch(() => '')
  return `${head}\n${refs}`
}

/**
 * Copies a bare repository to `destination` through a temporary directory, then checks the copy
 * (`git fsck --connectivity-only`, and the same refs and HEAD as the source) before putting it
 * in place. A write that slipped in just before the repository became read-only shows as a ref
 * difference: the copy is made once more from the now-stable source.
 */
async function copyVerified(source: string, destination: string, moveId: number): Promise<void> {
  const tmp = `${destination}.move-${moveId}.tmp`
  mkdirSync(dirname(destination), { recursive: true })
  for (let attempt = 1; ; attempt += 1) {
    await rm(tmp, { recursive: true, force: true })
    await cp(source, tmp, { recursive: true, errorOnExist: false, force: true })
    await gitText(['fsck', '--connectivity-only', '--no-progress'], { gitDir: tmp, timeoutMs: 600_000 })
    const [want, got] = await Promise.all([refState(source), refState(tmp)])
    if (want === got) break
    if (attempt >= 2) throw new Error('the copy does not have the same refs as the source repository')
  }
  await rm(destination, { recursive: true, force: true })
  await rename(tmp, destination)
}

/** The container of this kind and id as a move target, or null when it is gone. */
function targetOf(ctx: ServerContext, kind: StorageMoveKind, id: number): MoveTarget | null {
  if (kind === 'project') {
    const project = findProjectById(ctx.db, id)
    return project ? projectTarget(ctx, project) : null
  }
  if (kind === 'snippet') {
    const snippet = findSnippetById(ctx.db, id)
    return snippet ? snippetTarget(ctx, snippet) : null
  }
  const group = findNamespaceById(ctx.db, id)
  return group ? groupTarget(ctx, group) : null
}

function moveAuthor(ctx: ServerContext, move: StorageMoveRow): AuditAuthor {
  const user = move.user_id !== null ? findUserById(ctx.db, move.user_id) : undefined
  return { id: user?.id ?? -1, name: user?.name ?? 'Burrow Server', ip: null, impersonatedBy: null }
}

/**
 * Runs one move: `started` → copies and verifies every repository on the destination →
 * switches the container to it and makes it writable (`replicated`) → deletes the source copies
 * (`finished`, or `cleanup failed`). Any failure before the switch deletes what was copied,
 * leaves the original in place and writable, and marks the move `failed` with the reason.
 */
async function runMove(ctx: ServerContext, moveId: number): Promise<void> {
  const { db } = ctx
  const move = findStorageMove(db, moveId)
  if (!move) return
  const { kind, id } = moveContainer(move)
  const target = targetOf(ctx, kind, id)
  const author = moveAuthor(ctx, move)
  const source = move.source_storage_name
  const destination = move.destination_storage_name
  const repos = repositoriesOf(kind, id)
  const sameStorage = source === destination

  if (move.state === 'scheduled' || move.state === 'started') {
    setStorageMoveState(db, moveId, 'started')
    const copied: string[] = []
    try {
      if (!ctx.storages.includes(source) || !ctx.storages.includes(destination))
        throw new Error(`storage ${ctx.storages.includes(source) ? destination : source} is not configured`)
      if (!sameStorage) {
        for (const repo of repos) {
          const from = repoPathIn(ctx, source, repo)
          if (!existsSync(join(from, 'HEAD'))) continue
          const to = repoPathIn(ctx, destination, repo)
          copied.push(to)
          await copyVerified(from, to, moveId)
        }
      }
      const replicated = db.transaction(() => {
        if (!findStorageMove(db, moveId)) return false
        if (kind === 'project') switchProjectStorage(db, id, destination)
        else if (kind === 'group') switchGroupStorage(db, id, destination)
        setStorageMoveState(db, moveId, 'replicated')
        return true
      })()
      // The container was deleted meanwhile (its moves went with it): nothing is left to move to.
      if (!replicated) throw new Error('the container was deleted during the move')
    } catch (error) {
      for (const path of copied) await rm(path, { recursive: true, force: true }).catch(() => undefined)
      const reason = error instanceof Error ? error.message : String(error)
      db.transaction(() => {
        if (kind === 'project') setProjectReadOnly(db, id, false)
        setStorageMoveState(db, moveId, 'failed', reason)
        if (target)
          recordMoveAudit(
            db,
            author,
            target,
            `Repository storage move from ${source} to ${destination} failed: ${reason}`,
            move,
          )
      })()
      return
    }
  }

  let cleanupError: string | null = null
  if (!sameStorage) {
    for (const repo of repos) {
      try {
        await rm(repoPathIn(ctx, source, repo), { recursive: true, force: true })
      } catch (error) {
        cleanupError = error instanceof Error ? error.message : String(error)
      }
    }
  }
  db.transaction(() => {
    setStorageMoveState(db, moveId, cleanupError ? 'cleanup_failed' : 'finished', cleanupError)
    if (target) {
      const message = cleanupError
        ? `Moved the repository from ${source} to ${destination}; the copy on ${source} could not be deleted`
        : `Moved the repository from ${source} to ${destination}`
      recordMoveAudit(db, author, target, message, move)
    }
  })()
}
