import { chmodSync, mkdirSync, writeFileSync, existsSync } from 'node:fs'
import { join, relative } from 'node:path'
import { PassThrough, Transform } from 'node:stream'
import { gunzipSync } from 'node:zlib'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { Actor } from '../../platform/auth/actor'
import { AccessLevel } from '../../platform/auth/access'
import { authenticateSecret } from '../../platform/auth/authenticate'
import { Permissions } from '../../platform/auth/permissions'
import { findProject } from '../namespaces'
import type { ProjectRow } from '../../platform/db/rows'
import { canReadCodeWith } from '../../platform/http/repository'
import { ARCHIVED_PUSH_MESSAGE, isReadOnly } from '../../platform/http/archived'
import { ApiError, badRequest } from '../../platform/http/errors'
import { runningJobProjectId } from '../pipelines'
import { canReadWikiWith, canWriteWikiWith, ensureWikiRepo } from '../wikis'
import type { Db } from '../../platform/db/connection'
import { gitPushLanded, type RefUpdate } from '../../platform/git/push-listeners'
import { PushOptions } from '../../platform/git/push-options'
import type { PushPolicy } from '../../platform/git/push-policy'
import { spawnGit } from '../../platform/git/git'

export interface SmartHttpOptions {
  readonly hooksDir: string
  /** Extra rules (protected branches and tags); read-only repositories are always refused. */
  readonly pushPolicy?: PushPolicy
}

const SERVICES = new Set(['git-upload-pack', 'git-receive-pack'])
const WIKI_SUFFIX = '.wiki'

/** The request body, gunzipped when the client says it is gzip (git does for large requests); 400 when it is not. */
function decodedBody(request: FastifyRequest): Buffer | undefined {
  const body = Buffer.isBuffer(request.body) ? request.body : undefined
  if (!body || !/gzip/i.test(String(request.headers['content-encoding'] ?? ''))) return body
  try {
    return gunzipSync(body)
  } catch {
    throw badRequest('the request body is not valid gzip')
  }
}
const GIT_URL = /^\/(.+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/

/** The repository a smart HTTP path names: a project's code, or its wiki (`group/project.wiki`). */
function repositoryAt(db: Db, fullPath: string): { readonly project: ProjectRow; readonly wiki: boolean } | null {
  const project = findProject(db, fullPath)
  if (project) return { project, wiki: false }
  if (!fullPath.endsWith(WIKI_SUFFIX)) return null
  const owner = findProject(db, fullPath.slice(0, -WIKI_SUFFIX.length))
  return owner ? { project: owner, wiki: true } : null
}

/** What a receive-pack request asks before its pack: ref updates, the client's capabilities, push options. */
export interface ReceiveRequest {
  readonly updates: RefUpdate[]
  readonly capabilities: readonly string[]
  /** `git push -o` values, sent when both sides speak `push-options`. */
  readonly pushOptions: string[]
}

/** Reads pkt-lines from `offset` up to a flush; returns their texts and where the flush ends. */
function pktLinesFrom(body: Buffer, offset: number): { readonly lines: string[]; readonly end: number } {
  const lines: string[] = []
  while (offset + 4 <= body.length) {
    const len = Number.parseInt(body.toString('ascii', offset, offset + 4), 16)
    if (!Number.isInteger(len) || len === 0) return { lines, end: offset + 4 }
    if (len < 4 || offset + len > body.length) break
    lines.push(body.toString('utf8', offset + 4, offset + len).replace(/\n$/, ''))
    offset += len
  }
  return { lines, end: body.length }
}

/** Parses the start of a receive-pack request: the ref-update commands (pkt-lines up to flush), then the push options. */
export function parseReceiveRequest(body: Buffer): ReceiveRequest {
  const commands = pktLinesFrom(body, 0)
  const updates: RefUpdate[] = []
  let capabilities: string[] = []
  for (const [index, line] of commands.lines.entries()) {
    const [command, caps] = line.split('\0')
    if (index === 0 && caps !== undefined) capabilities = caps.split(' ').filter((c) => c !== '')
    const m = /^([0-9a-f]{40,64}) ([0-9a-f]{40,64}) (\S+)$/.exec(command)
    if (m) updates.push({ oldSha: m[1], newSha: m[2], ref: m[3] })
  }
  const pushOptions = capabilities.includes('push-options') ? pktLinesFrom(body, commands.end).lines : []
  return { updates, capabilities, pushOptions }
}

/** The largest pkt-line the client's side-band takes, or null when it asked for none. */
function sideBandLimit(capabilities: readonly string[]): number | null {
  if (capabilities.includes('side-band-64k')) return 65520
  if (capabilities.includes('side-band')) return 1000
  return null
}

/** `text` as side-band 2 (progress) pkt-lines, which git prints prefixed with `remote: `. */
export function sideBandMessage(text: string, limit: number): Buffer {
  const data = Buffer.from(text, 'utf8')
  const room = limit - 5
  const packets: Buffer[] = []
  for (let at = 0; at < data.length; at += room) {
    const part = data.subarray(at, at + room)
    packets.push(Buffer.from((part.length + 5).toString(16).padStart(4, '0') + '\x02', 'latin1'), part)
  }
  return Buffer.concat(packets)
}

/**
 * Passes receive-pack's answer through, holding back its closing flush-pkt until `lines` are known,
 * then sends them on side-band 2 before it, as GitLab prints its post-receive messages.
 */
function withPushReply(lines: Promise<readonly string[]>, limit: number): Transform {
  let tail = Buffer.alloc(0)
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const all = Buffer.concat([tail, chunk])
      tail = all.subarray(Math.max(0, all.length - 4))
      done(null, all.subarray(0, all.length - tail.length))
    },
    flush(done) {
      lines.then(
        (text) => {
          if (text.length > 0 && tail.toString('latin1') === '0000')
            this.push(sideBandMessage(text.join('\n') + '\n', limit))
          this.push(tail)
          done()
        },
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      )
    },
  })
}

/** The pre-receive hook: refuses the whole push with BURROW_PUSH_DENIED's text when it is set. */
const PRE_RECEIVE = `#!/bin/sh
if [ -n "$BURROW_PUSH_DENIED" ]; then
  printf '%s\\n' "$BURROW_PUSH_DENIED" >&2
  exit 1
fi
exit 0
`

function installHooks(hooksDir: string): void {
  mkdirSync(hooksDir, { recursive: true })
  const hook = join(hooksDir, 'pre-receive')
  writeFileSync(hook, PRE_RECEIVE)
  chmodSync(hook, 0o755)
}

function challenge(reply: FastifyReply): FastifyReply {
  return reply
    .code(401)
    .header('WWW-Authenticate', 'Basic realm="Burrow Server"')
    .type('text/plain')
    .send('HTTP Basic: Access denied\n')
}

function basicCredentials(request: FastifyRequest): { login: string; secret: string } | null {
  const header = request.headers.authorization
  if (!header) return null
  const m = /^Basic\s+(.+)$/i.exec(header.trim())
  if (!m) return null
  const decoded = Buffer.from(m[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  return { login: decoded.slice(0, colon), secret: decoded.slice(colon + 1) }
}

/**
 * Git smart HTTP at `/{namespace}/{project}.git/…` through `git http-backend`: basic auth with
 * any username and a token (or the password) as password; anonymous fetch of public projects;
 * fetch needs Reporter on private projects; push needs Developer and passes the push policy.
 * A running CI job's token (user `gitlab-ci-token`) may fetch its own project only.
 */
const smartHttp: FastifyPluginAsync<SmartHttpOptions> = async (app, opts) => {
  const ctx = app.burrow
  installHooks(opts.hooksDir)

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const path = request.url.split('?')[0]
    const m = GIT_URL.exec(decodeURIComponent(path))
    if (!m) return reply.code(404).send({ error: '404 Not Found' })
    const [, fullPath, action] = m
    const query = (request.query ?? {}) as Record<string, unknown>
    const service = action === 'info/refs' ? String(query.service ?? '') : action
    if (!SERVICES.has(service)) return reply.code(403).type('text/plain').send('Dumb HTTP protocol is not supported\n')
    if (action !== 'info/refs' && request.method !== 'POST') return reply.code(405).send()
    if (action === 'info/refs' && request.method !== 'GET') return reply.code(405).send()

    let actor: Actor | null = null
    const creds = basicCredentials(request)
    // A running CI job's token (user gitlab-ci-token) fetches its own project's code, nothing more.
    const jobProjectId = creds?.login === 'gitlab-ci-token' ? runningJobProjectId(ctx, creds.secret) : null
    if (creds && jobProjectId === null) {
      const check = (): Actor | null => authenticateSecret(ctx, creds.login, creds.secret)
      try {
        // GitLab's failed-authentication ban leaves CI job logins alone (a job's token is checked above).
        actor = creds.login === 'gitlab-ci-token' ? check() : ctx.failedAuthBan.attempt(request.ip, check)
      } catch (error) {
        if (error instanceof ApiError && error.statusCode === 401) return challenge(reply)
        throw error
      }
      if (!actor) return challenge(reply)
    } else if (!creds && request.actor.user) {
      actor = request.actor
    }
    const user = actor?.user ?? null
    const perms = new Permissions(ctx.db, user)
    const target = repositoryAt(ctx.db, fullPath)
    const project = target?.project
    const wiki = target?.wiki === true
    const push = service === 'git-receive-pack'
    if (jobProjectId !== null) {
      if (!project || wiki || project.id !== jobProjectId)
        return reply.code(404).type('text/plain').send('The project you were looking for could not be found.\n')
      if (push) return reply.code(403).type('text/plain').send('You are not allowed to push code to this project.\n')
    } else {
      if (!project || !perms.canReadProject(project)) {
        if (!user) return challenge(reply)
        return reply.code(404).type('text/plain').send('The project you were looking for could not be found.\n')
      }
      const scopes = actor?.scopes ?? []
      if (push) {
        if (!user) return challenge(reply)
        if (!scopes.some((s) => s === 'api' || s === 'write_repository'))
          return reply.code(403).type('text/plain').send('Your token lacks the write_repository scope.\n')
        if (wiki && !canWriteWikiWith(perms, project))
          return reply.code(403).type('text/plain').send("You are not allowed to write to this project's wiki.\n")
        // Pushing needs the code too: a repository turned off takes pushes from nobody (GitLab's push_code).
        if (!wiki && (!perms.canInProject(project, AccessLevel.DEVELOPER) || !canReadCodeWith(perms, project))) {
          return reply.code(403).type('text/plain').send('You are not allowed to push code to this project.\n')
        }
        if (isReadOnly(project)) return reply.code(403).type('text/plain').send(`${ARCHIVED_PUSH_MESSAGE}\n`)
      } else {
        if (
          user &&
          !scopes.some((s) => s === 'api' || s === 'read_api' || s === 'read_repository' || s === 'write_repository')
        ) {
          return reply.code(403).type('text/plain').send('Your token lacks the read_repository scope.\n')
        }
        // The API's read_code rule (read_wiki for a wiki), feature level included: a repository
        // limited to members is not fetched by others of a public project, a disabled one by nobody.
        if (!(wiki ? canReadWikiWith(perms, project) : canReadCodeWith(perms, project))) {
          if (!user) return challenge(reply)
          return reply.code(403).type('text/plain').send('You are not allowed to download code from this project.\n')
        }
      }
    }

    const gitDir = wiki
      ? await ensureWikiRepo(ctx, project)
      : ctx.repos.repoPath(project.repository_storage, 'project', project.id)
    if (!existsSync(join(gitDir, 'HEAD')))
      await ctx.repos.create(gitDir, project.default_branch ?? ctx.settings.get('default_branch_name'))
    const root = ctx.repos.storageRoot(project.repository_storage)

    const body = decodedBody(request)
    let received: ReceiveRequest = { updates: [], capabilities: [], pushOptions: [] }
    let denied: string | null = null
    if (body && push && action === 'git-receive-pack') {
      received = parseReceiveRequest(body)
      const updates = received.updates
      if (project.repository_read_only) {
        denied = 'GitLab: The repository is temporarily read-only. Please try again later.'
      } else if (opts.pushPolicy && user && !wiki) {
        denied = opts.pushPolicy(project, user, perms, updates)
      }
    }

    const env: Record<string, string> = {
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: '/' + relative(root, gitDir) + '/' + action,
      QUERY_STRING: request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '',
      REQUEST_METHOD: request.method,
      CONTENT_TYPE: String(request.headers['content-type'] ?? ''),
      REMOTE_ADDR: request.ip,
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'core.hooksPath',
      GIT_CONFIG_VALUE_0: opts.hooksDir,
      GIT_CONFIG_KEY_1: 'receive.advertisePushOptions',
      GIT_CONFIG_VALUE_1: 'true',
    }
    if (user) env.REMOTE_USER = user.username
    if (denied) env.BURROW_PUSH_DENIED = denied
    const protocol = request.headers['git-protocol']
    if (typeof protocol === 'string') env.GIT_PROTOCOL = protocol

    const child = spawnGit(['http-backend'], { env })
    child.stdin?.on('error', () => undefined)
    if (body) child.stdin?.end(body)
    else child.stdin?.end()

    const out = new PassThrough()
    let head = Buffer.alloc(0)
    let headersDone = false
    const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)))
    const headersReady = new Promise<{ status: number; headers: Record<string, string> }>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        if (headersDone) {
          out.write(chunk)
          return
        }
        head = Buffer.concat([head, chunk])
        const sep = head.indexOf('\r\n\r\n')
        const sepLen = sep >= 0 ? 4 : 2
        const at = sep >= 0 ? sep : head.indexOf('\n\n')
        if (at < 0) return
        headersDone = true
        const headers: Record<string, string> = {}
        let status = 200
        for (const line of head.subarray(0, at).toString('latin1').split(/\r?\n/)) {
          const colon = line.indexOf(':')
          if (colon < 0) continue
          const name = line.slice(0, colon).trim()
          const value = line.slice(colon + 1).trim()
          if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200
          else headers[name] = value
        }
        const rest = head.subarray(at + sepLen)
        if (rest.length > 0) out.write(rest)
        resolve({ status, headers })
      })
      child.stdout?.on('end', () => {
        if (!headersDone) reject(new Error('git http-backend produced no headers'))
        out.end()
      })
      child.on('error', reject)
    })
    const stderr: Buffer[] = []
    child.stderr?.on('data', (c: Buffer) => stderr.push(c))

    const { status, headers } = await headersReady
    // The push listeners (events, merge requests, pipelines) follow the code; a wiki's pushes are its own.
    // They run whether or not the client stays to read what they have to say.
    if (push && action === 'git-receive-pack' && user && !denied && received.updates.length > 0 && !wiki) {
      const options = PushOptions.parse(received.pushOptions)
      const { updates } = received
      const lines = exited.then((code) =>
        code === 0 ? gitPushLanded({ ctx, project, user, updates, options, baseUrl: ctx.baseUrl(request) }) : [],
      )
      const limit = sideBandLimit(received.capabilities)
      if (limit !== null)
        return reply
          .code(status)
          .headers(headers)
          .send(out.pipe(withPushReply(lines, limit)))
    }
    return reply.code(status).headers(headers).send(out)
  }

  const routeOptions = { bodyLimit: 2 * 1024 * 1024 * 1024, config: { scopes: [] as const } }
  app.get('/*', routeOptions, handler)
  app.post('/*', routeOptions, handler)
}

export default smartHttp
