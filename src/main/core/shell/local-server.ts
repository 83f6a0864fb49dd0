import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { dirname } from 'node:path'

/*
 * The packaged app's own Burrow Server: out/server/cli.cjs (compiled ahead of time by
 * vite.server.config.ts) run by the app's Electron binary as plain Node
 * (`ELECTRON_RUN_AS_NODE=1`), so the package holds one Node runtime and one build of
 * better-sqlite3, for Electron's ABI. Like `npm start`, each launch gives the server a new root
 * token, kept in memory and handed to the app's local account.
 */

export interface EmbeddedServerOptions {
  /** The binary to run the server with: the app's Electron (`process.execPath`); Node in tests. */
  readonly execPath: string
  /** The compiled server, out/server/cli.cjs inside the app. */
  readonly entry: string
  readonly dataDir: string
  /** launcher.json: the last launch's port, tried first so the local account's URL stays put. */
  readonly stateFile: string
  /** The environment the server inherits (the app's, less what is the app's alone). */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Each line the server prints, for the app's log. */
  readonly onOutput?: (line: string, stream: 'stdout' | 'stderr') => void
  /** How long to wait for GET /api/v4/version to answer 200 (default 120 s: a first start migrates). */
  readonly readyTimeoutMs?: number
}

export interface EmbeddedServer {
  readonly baseUrl: string
  readonly version: string
  readonly rootToken: string
  readonly process: ChildProcess
  /** SIGTERM, then SIGKILL after 5 s; resolves once it exited. */
  stop(): Promise<void>
}

/** Variables of the app's that the server must not inherit: Electron's own switches and the launcher's credential. */
const NOT_INHERITED = /^(ELECTRON_|BURROW_LOCAL_SERVER_TOKEN$|BURROW_SERVER_URL$|BURROW_ROOT_TOKEN$)/

/** The command line and environment that run the compiled server from the app's binary. */
export function embeddedServerCommand(options: {
  execPath: string
  entry: string
  dataDir: string
  port: number
  rootToken: string
  env: Readonly<Record<string, string | undefined>>
}): {
  command: string
  args: string[]
  env: Record<string, string>
} {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.env))
    if (value !== undefined && !NOT_INHERITED.test(name)) env[name] = value
  env.ELECTRON_RUN_AS_NODE = '1'
  env.BURROW_ROOT_TOKEN = options.rootToken
  return {
    command: options.execPath,
    args: [options.entry, '--host', '127.0.0.1', '--port', String(options.port), '--data-dir', options.dataDir],
    env,
  }
}

/** A port nobody listens on right now on 127.0.0.1 (the server binds it a moment later): `wanted` when it is free, else any. */
export function freePort(wanted = 0): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer()
    probe.once('error', (error) => (wanted !== 0 ? freePort(0).then(resolvePort, reject) : reject(error)))
    probe.listen(wanted, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolvePort(port))
    })
  })
}

/** The last launch's server port from launcher.json, or undefined. */
export function readLauncherPort(file: string): number | undefined {
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as { serverPort?: unknown }
    const port = state?.serverPort
    return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined
  } catch {
    return undefined
  }
}

/** Remembers this launch's port; a read-only location only costs the preference. */
export function writeLauncherPort(file: string, port: number): void {
  try {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, `${JSON.stringify({ serverPort: port })}\n`)
  } catch {
    // as said
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
    child.once('exit', () => {
      clearTimeout(timer)
      done()
    })
    child.kill('SIGTERM')
  })
}

function forwardLines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  let pending = ''
  stream?.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) if (line.trim() !== '') onLine(line)
  })
}

/**
 * Starts the embedded server and resolves once GET /api/v4/version answers 200; rejects (and
 * stops it) when it exits first or does not answer in time.
 */
export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const port = await freePort(readLauncherPort(options.stateFile) ?? 0)
  const rootToken = randomBytes(24).toString('hex')
  mkdirSync(options.dataDir, { recursive: true })
  const { command, args, env } = embeddedServerCommand({ ...options, port, rootToken })
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true })
  forwardLines(child.stdout, (line) => options.onOutput?.(line, 'stdout'))
  forwardLines(child.stderr, (line) => options.onOutput?.(line, 'stderr'))
  let exited: string | null = null
  child.once('exit', (code, signal) => (exited = String(signal ?? code)))
  child.once('error', (error) => (exited = error.message))
  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000)
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`Burrow Server exited before it was ready (${exited})`)
    const version = await probeVersion(baseUrl)
    if (version !== null) {
      writeLauncherPort(options.stateFile, port)
      return { baseUrl, version, rootToken, process: child, stop: () => stopChild(child) }
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  await stopChild(child)
  throw new Error(`Burrow Server did not answer ${baseUrl}/api/v4/version in time`)
}

/** The server's version when it answers, else null. */
async function probeVersion(baseUrl: string): Promise<string | null> {
  try {
    const response = await fetch(`${baseUrl}/api/v4/version`, { signal: AbortSignal.timeout(2_000) })
    if (response.status !== 200) return null
    const body = (await response.json()) as { version?: unknown }
    return typeof body.version === 'string' ? body.version : ''
  } catch {
    return null
  }
}
