import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  embeddedServerCommand,
  readLauncherPort,
  startEmbeddedServer,
  type EmbeddedServer,
} from '../../src/main/core/shell/local-server'
import { buildServerBundle } from '../helpers/server-build'

/*
 * The packaged app's embedded Burrow Server (src/main/core/shell/local-server.ts): the server
 * compiled ahead of time by vite.server.config.ts, run with ELECTRON_RUN_AS_NODE=1 by the
 * app's binary. Electron cannot be downloaded here, so Node stands in for it: the same
 * command line and environment, `process.execPath` being node instead of the app.
 */

let bundle: Awaited<ReturnType<typeof buildServerBundle>>
const folder = mkdtempSync(join(tmpdir(), 'burrow-embedded-'))
const running: EmbeddedServer[] = []
let firstToken = ''

beforeAll(async () => {
  bundle = await buildServerBundle()
})

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()))
  bundle?.remove()
  rmSync(folder, { recursive: true, force: true })
})

describe('the embedded server', () => {
  it('runs the compiled server with the app’s binary as Node, without the app’s own variables', () => {
    const command = embeddedServerCommand({
      execPath: '/opt/Burrow/burrow',
      entry: '/opt/Burrow/resources/app.asar/out/server/cli.cjs',
      dataDir: '/home/u/.local/share/burrow/server',
      port: 4321,
      rootToken: 'launch-token',
      env: {
        PATH: '/usr/bin',
        HOME: '/home/u',
        ELECTRON_ENABLE_LOGGING: '1',
        BURROW_LOCAL_SERVER_TOKEN: 'old',
        BURROW_SERVER_URL: 'http://x',
        BURROW_ROOT_TOKEN: 'old',
      },
    })
    expect(command).toEqual({
      command: '/opt/Burrow/burrow',
      args: [
        '/opt/Burrow/resources/app.asar/out/server/cli.cjs',
        '--host',
        '127.0.0.1',
        '--port',
        '4321',
        '--data-dir',
        '/home/u/.local/share/burrow/server',
      ],
      env: { PATH: '/usr/bin', HOME: '/home/u', ELECTRON_RUN_AS_NODE: '1', BURROW_ROOT_TOKEN: 'launch-token' },
    })
  })

  it('starts from the bundle alone (no tsx), answers with this launch’s root token and remembers its port', async () => {
    expect(readFileSync(bundle.entry, 'utf8')).not.toMatch(/require\("tsx/)
    const dataDir = join(folder, 'burrow', 'server')
    const stateFile = join(folder, 'burrow', 'launcher.json')
    const lines: string[] = []
    const server = await startEmbeddedServer({
      execPath: process.execPath,
      entry: bundle.entry,
      dataDir,
      stateFile,
      env: { ...process.env, BURROW_LOCAL_SERVER_TOKEN: 'leak' },
      onOutput: (line) => lines.push(line),
    })
    running.push(server)
    firstToken = server.rootToken
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(server.version).toMatch(/^\d+\.\d+/)
    const user = await fetch(`${server.baseUrl}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': server.rootToken } })
    expect(user.status).toBe(200)
    expect(await user.json()).toMatchObject({ username: 'root', is_admin: true })
    expect((await fetch(`${server.baseUrl}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'leak' } })).status).toBe(401)
    expect(readLauncherPort(stateFile)).toBe(Number(new URL(server.baseUrl).port))
    expect(existsSync(dataDir)).toBe(true)
    expect(lines.join('\n')).toContain('Burrow Server listening on')
    // What the process really got (Linux exposes a process's environment).
    if (process.platform === 'linux') {
      const environ = readFileSync(`/proc/${server.process.pid}/environ`, 'utf8').split('\0')
      expect(environ).toContain('ELECTRON_RUN_AS_NODE=1')
      expect(environ.some((v) => v.startsWith('BURROW_LOCAL_SERVER_TOKEN='))).toBe(false)
    }
    await server.stop()
    expect(server.process.exitCode !== null || server.process.signalCode !== null).toBe(true)
  })

  it('takes the same port again on the next launch, and a new token that replaces the last one', async () => {
    const dataDir = join(folder, 'burrow', 'server')
    const stateFile = join(folder, 'burrow', 'launcher.json')
    const port = readLauncherPort(stateFile)
    const server = await startEmbeddedServer({
      execPath: process.execPath,
      entry: bundle.entry,
      dataDir,
      stateFile,
      env: process.env,
    })
    running.push(server)
    expect(Number(new URL(server.baseUrl).port)).toBe(port)
    expect(
      (await fetch(`${server.baseUrl}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': server.rootToken } })).status,
    ).toBe(200)
    expect((await fetch(`${server.baseUrl}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': firstToken } })).status).toBe(
      401,
    )
    await server.stop()
  })

  it('rejects when the server exits before it answers', async () => {
    const broken = join(folder, 'broken.cjs')
    writeFileSync(broken, 'process.exit(3)\n')
    await expect(
      startEmbeddedServer({
        execPath: process.execPath,
        entry: broken,
        dataDir: join(folder, 'x'),
        stateFile: join(folder, 'x.json'),
        env: process.env,
      }),
    ).rejects.toThrow(/exited before it was ready \(3\)/)
  })
})
