import { crc32 } from 'node:zlib'
import type { FastifyInstance } from 'fastify'

/**
 * A minimal GitLab Runner for tests: it registers with a registration token, asks for jobs with
 * `POST /jobs/request`, "runs" a job without executing anything (a script line `exit N` with N
 * not 0 fails it, every other line succeeds and `echo` prints its text), streams the log with
 * `PATCH /jobs/:id/trace`, uploads the artifacts the job declares and reports the final state
 * with `PUT /jobs/:id` — the same calls, in the same order, as gitlab-runner.
 */

export interface RunnerResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>
  readonly text: string
}

export interface RunnerRequest {
  readonly json?: unknown
  readonly body?: Buffer | string
  readonly headers?: Readonly<Record<string, string>>
}

/** How the runner reaches the server. */
export type RunnerTransport = (method: string, path: string, request?: RunnerRequest) => Promise<RunnerResponse>

/** Through `app.inject` (route tests). */
export function injectTransport(app: FastifyInstance): RunnerTransport {
  return async (method, path, r = {}) => {
    const headers: Record<string, string> = { ...(r.headers ?? {}) }
    let payload: string | Buffer | undefined
    if (r.json !== undefined) {
      headers['content-type'] = 'application/json'
      payload = JSON.stringify(r.json)
    } else if (r.body !== undefined) payload = r.body
    const res = await app.inject({ method: method as 'GET', url: `/api/v4${path}`, headers, payload })
    return { status: res.statusCode, headers: res.headers, text: res.body }
  }
}

/** Over HTTP to a listening server (wire tests). */
export function httpTransport(baseUrl: string): RunnerTransport {
  return async (method, path, r = {}) => {
    const headers: Record<string, string> = { ...(r.headers ?? {}) }
    let body: string | Buffer | undefined
    if (r.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(r.json)
    } else if (r.body !== undefined) body = r.body
    const res = await fetch(`${baseUrl}/api/v4${path}`, {
      method,
      headers,
      body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
    })
    const out: Record<string, string> = {}
    res.headers.forEach((v, k) => {
      out[k] = v
    })
    return { status: res.status, headers: out, text: await res.text() }
  }
}

/** A zip archive with the files stored (not compressed): what the runner uploads as `archive`. */
export function storedZip(files: Readonly<Record<string, string | Buffer>>): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const [name, raw] of Object.entries(files)) {
    const data = typeof raw === 'string' ? Buffer.from(raw) : raw
    const fileName = Buffer.from(name)
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(fileName.length, 26)
    locals.push(local, fileName, data)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(fileName.length, 28)
    central.writeUInt32LE(offset, 42)
    centrals.push(central, fileName)
    offset += 30 + fileName.length + data.length
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(Object.keys(files).length, 8)
  end.writeUInt16LE(Object.keys(files).length, 10)
  end.writeUInt32LE(centralSize, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, ...centrals, end])
}

function multipart(
  fields: Readonly<Record<string, string>>,
  file: { readonly name: string; readonly filename: string; readonly content: Buffer },
): { body: Buffer; contentType: string } {
  const boundary = `----burrowtest${Math.random().toString(16).slice(2)}`
  const chunks: Buffer[] = []
  for (const [k, v] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`))
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
  )
  chunks.push(file.content, Buffer.from(`\r\n--${boundary}--\r\n`))
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}

/** The job payload fields the test runner uses. */
export interface JobSpec {
  readonly id: number
  readonly token: string
  readonly job_info: { readonly name: string; readonly stage: string; readonly project_id: number }
  readonly git_info: {
    readonly repo_url: string
    readonly ref: string
    readonly sha: string
    readonly ref_type: string
  }
  readonly variables: readonly {
    readonly key: string
    readonly value: string
    readonly public: boolean
    readonly masked: boolean
  }[]
  readonly steps: readonly { readonly name: string; readonly script: readonly string[]; readonly when: string }[]
  readonly artifacts:
    | readonly {
        readonly name: string
        readonly paths: readonly string[]
        readonly artifact_type: string
        readonly artifact_format: string
        readonly expire_in: string | null
      }[]
    | null
  readonly dependencies: readonly {
    readonly id: number
    readonly name: string
    readonly token: string
    readonly artifacts_file: { readonly filename: string; readonly size: number }
  }[]
}

/** What one run did. */
export interface RunResult {
  readonly job: JobSpec
  readonly state: 'success' | 'failed'
  readonly trace: string
}

export interface TestRunnerOptions {
  readonly description?: string
  readonly tagList?: readonly string[]
  readonly runUntagged?: boolean
  readonly accessLevel?: 'not_protected' | 'ref_protected'
  readonly locked?: boolean
  /** Files of the "workspace" that artifact paths pick from (path → content). */
  readonly workspace?: Readonly<Record<string, string>>
}

export class TestRunner {
  private constructor(
    private readonly transport: RunnerTransport,
    readonly id: number,
    readonly token: string,
    private readonly workspace: Readonly<Record<string, string>>,
  ) {}

  /** Registers with `POST /runners`; throws unless the server answers 201. */
  static async register(
    transport: RunnerTransport,
    registrationToken: string,
    options: TestRunnerOptions = {},
  ): Promise<TestRunner> {
    const res = await transport('POST', '/runners', {
      json: {
        token: registrationToken,
        description: options.description ?? 'test runner',
        tag_list: options.tagList ?? [],
        run_untagged: options.runUntagged ?? true,
        access_level: options.accessLevel ?? 'not_protected',
        locked: options.locked ?? false,
        info: {
          name: 'burrow-test-runner',
          version: '17.6.0',
          revision: 'test',
          platform: 'linux',
          architecture: 'amd64',
          executor: 'shell',
        },
      },
    })
    if (res.status !== 201) throw new Error(`runner registration failed: ${res.status} ${res.text}`)
    const body = JSON.parse(res.text) as { id: number; token: string }
    return new TestRunner(transport, body.id, body.token, options.workspace ?? {})
  }

  /** A runner created without a registration token (`POST /user/runners`), from its id and authentication token. */
  static connect(
    transport: RunnerTransport,
    created: { readonly id: number; readonly token: string },
    workspace: Readonly<Record<string, string>> = {},
  ): TestRunner {
    return new TestRunner(transport, created.id, created.token, workspace)
  }

  /** `POST /runners/verify`, as gitlab-runner checks its token on start: the status. */
  async verify(): Promise<number> {
    return (await this.transport('POST', '/runners/verify', { json: { token: this.token } })).status
  }

  /** `POST /jobs/request`: the job payload, or null on 204. */
  async requestJob(): Promise<JobSpec | null> {
    const res = await this.transport('POST', '/jobs/request', {
      json: {
        token: this.token,
        info: {
          name: 'burrow-test-runner',
          version: '17.6.0',
          platform: 'linux',
          architecture: 'amd64',
          executor: 'shell',
          features: { trace_checksum: true },
        },
      },
    })
    if (res.status === 204) return null
    if (res.status !== 201) throw new Error(`job request failed: ${res.status} ${res.text}`)
    return JSON.parse(res.text) as JobSpec
  }

  /** Appends log text with `PATCH /jobs/:id/trace` from the given offset; returns the response. */
  patchTrace(job: Pick<JobSpec, 'id' | 'token'>, offset: number, text: string): Promise<RunnerResponse> {
    const bytes = Buffer.from(text)
    return this.transport('PATCH', `/jobs/${job.id}/trace`, {
      body: bytes,
      headers: {
        'job-token': job.token,
        'content-type': 'text/plain',
        'content-range': `${offset}-${offset + bytes.length - 1}`,
      },
    })
  }

  /** `PUT /jobs/:id` with the final (or running) state. */
  updateJob(
    job: Pick<JobSpec, 'id' | 'token'>,
    state: 'running' | 'success' | 'failed',
    extra: Readonly<Record<string, unknown>> = {},
  ): Promise<RunnerResponse> {
    return this.transport('PUT', `/jobs/${job.id}`, { json: { token: job.token, state, ...extra } })
  }

  /** `POST /jobs/:id/artifacts` with one file. */
  uploadArtifact(
    job: Pick<JobSpec, 'id' | 'token'>,
    type: string,
    format: string,
    filename: string,
    content: Buffer,
    expireIn?: string,
  ): Promise<RunnerResponse> {
    const form = multipart({}, { name: 'file', filename, content })
    const query = new URLSearchParams({
      artifact_type: type,
      artifact_format: format,
      ...(expireIn ? { expire_in: expireIn } : {}),
    })
    return this.transport('POST', `/jobs/${job.id}/artifacts?${query.toString()}`, {
      body: form.body,
      headers: { 'content-type': form.contentType, 'job-token': job.token },
    })
  }

  /** "Runs" one job as described above and reports it; the result, or null when no job was waiting. */
  async runOnce(): Promise<RunResult | null> {
    const job = await this.requestJob()
    if (!job) return null
    const lines: string[] = []
    let failed = false
    for (const step of job.steps) {
      if (step.name !== 'script' && failed && step.when !== 'always') continue
      for (const command of step.script) {
        lines.push(`$ ${command}`)
        const echo = /^echo\s+["']?(.*?)["']?$/.exec(command)
        if (echo)
          lines.push(
            echo[1].replace(
              /\$\{?([A-Z_][A-Z0-9_]*)\}?/g,
              (all, name: string) => job.variables.find((v) => v.key === name)?.value ?? '',
            ),
          )
        const exit = /\bexit\s+(\d+)/.exec(command)
        if (exit && exit[1] !== '0' && step.name === 'script') {
          failed = true
          break
        }
      }
    }
    lines.push(failed ? 'ERROR: Job failed: exit code 1' : 'Job succeeded')
    const trace = `${lines.join('\n')}\n`
    const patched = await this.patchTrace(job, 0, trace)
    if (patched.status !== 202) throw new Error(`trace patch failed: ${patched.status} ${patched.text}`)
    for (const a of job.artifacts ?? []) {
      const files = Object.fromEntries(
        Object.entries(this.workspace).filter(([path]) =>
          a.paths.some((p) => p === path || (p.endsWith('/') && path.startsWith(p))),
        ),
      )
      if (Object.keys(files).length === 0) continue
      const content = a.artifact_type === 'archive' ? storedZip(files) : Buffer.from(Object.values(files)[0])
      const filename = a.artifact_type === 'archive' ? 'artifacts.zip' : Object.keys(files)[0]
      const uploaded = await this.uploadArtifact(
        job,
        a.artifact_type,
        a.artifact_format,
        filename,
        content,
        a.expire_in ?? undefined,
      )
      if (uploaded.status !== 201) throw new Error(`artifact upload failed: ${uploaded.status} ${uploaded.text}`)
    }
    const state = failed ? 'failed' : 'success'
    const updated = await this.updateJob(
      job,
      state,
      failed ? { failure_reason: 'script_failure', exit_code: 1 } : { exit_code: 0 },
    )
    if (updated.status !== 200) throw new Error(`job update failed: ${updated.status} ${updated.text}`)
    return { job, state, trace }
  }

  /** Runs jobs until none is waiting; returns what ran, in order. */
  async runAll(limit = 50): Promise<RunResult[]> {
    const done: RunResult[] = []
    for (let i = 0; i < limit; i += 1) {
      const r = await this.runOnce()
      if (!r) return done
      done.push(r)
    }
    throw new Error(`more than ${limit} jobs`)
  }
}
