import { parseArgs } from 'node:util'
import { buildApp } from './app'

/** `npm run server -- --host 127.0.0.1 --port PORT --data-dir DIR` (DESIGN.md, "Server contract"). */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '3000' },
      'data-dir': { type: 'string', default: '.burrow/server' },
      'external-url': { type: 'string' },
      storage: { type: 'string', multiple: true },
      log: { type: 'boolean', default: false },
    },
    allowPositionals: false,
  })
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer from 0 to 65535, got ${values.port}`)
  const app = await buildApp({
    dataDir: values['data-dir'] as string,
    rootToken: process.env.BURROW_ROOT_TOKEN || undefined,
    externalUrl: values['external-url'],
    storages: values.storage,
    logger: values.log,
  })
  const address = await app.listen({ host: values.host, port })
  process.stdout.write(`Burrow Server listening on ${address}\n`)
  const stop = (): void => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  process.stderr.write(`burrow server: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
