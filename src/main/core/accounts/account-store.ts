import { readFile } from 'node:fs/promises'
import { Account } from '../../../shared/ipc/accounts'
import { schemaGuard } from '../../../shared/ipc/schema-check'
import { SerialQueue, writeFileAtomic } from './atomic-file'

interface AccountsFile {
  readonly version: 1
  readonly accounts: readonly Account[]
  /** The user removed the local server's account: later launches do not add it back on their own. */
  readonly localRemoved?: true
}

/** An entry of accounts.json that is an Account (other fields are allowed, and dropped by metadataOnly). */
const isAccount = schemaGuard(Account)

/** Only the metadata fields, whatever else an object carries: what may be written to disk. */
export function metadataOnly(a: Account): Account {
  const { id, kind, baseUrl, username, userId, name, avatarUrl, authKind, addedAt, caFile, signInRequired } = a
  return {
    id,
    ...(kind === undefined ? {} : { kind }),
    baseUrl,
    username,
    userId,
    name,
    avatarUrl,
    authKind,
    addedAt,
    ...(caFile === undefined ? {} : { caFile }),
    ...(signInRequired === undefined
      ? {}
      : { signInRequired: { reason: signInRequired.reason, since: signInRequired.since } }),
  }
}

/**
 * Account metadata in one JSON file of the user data dir (`accounts.json`). Never secrets:
 * those live in a SecretStore. Writes are serialized and atomic.
 */
export class AccountStore {
  private readonly queue = new SerialQueue()
  private cache: Account[] | null = null
  private localRemoved = false

  constructor(readonly file: string) {}

  async list(): Promise<readonly Account[]> {
    return [...(await this.load())]
  }

  async get(id: string): Promise<Account | undefined> {
    return (await this.load()).find((a) => a.id === id)
  }

  async add(account: Account): Promise<void> {
    await this.queue.run(async () => this.save([...(await this.load()), metadataOnly(account)]))
  }

  async update(account: Account): Promise<void> {
    await this.queue.run(async () =>
      this.save((await this.load()).map((a) => (a.id === account.id ? metadataOnly(account) : a))),
    )
  }

  /** Whether the user removed the local server's account (and has not added it back). */
  async isLocalRemoved(): Promise<boolean> {
    await this.load()
    return this.localRemoved
  }

  async setLocalRemoved(removed: boolean): Promise<void> {
    await this.queue.run(async () => {
      const accounts = await this.load()
      if (this.localRemoved === removed) return
      this.localRemoved = removed
      await this.save(accounts)
    })
  }

  /** Returns false when no account has this id. */
  async remove(id: string): Promise<boolean> {
    return this.queue.run(async () => {
      const accounts = await this.load()
      const rest = accounts.filter((a) => a.id !== id)
      if (rest.length === accounts.length) return false
      await this.save(rest)
      return true
    })
  }

  private async load(): Promise<Account[]> {
    if (this.cache !== null) return this.cache
    let text: string
    try {
      text = await readFile(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return (this.cache = [])
      throw error
    }
    const parsed = JSON.parse(text) as Partial<AccountsFile>
    this.localRemoved = parsed.localRemoved === true
    // An entry that does not parse is dropped rather than making every account unusable.
    this.cache = Array.isArray(parsed.accounts) ? parsed.accounts.filter(isAccount).map(metadataOnly) : []
    return this.cache
  }

  private async save(accounts: Account[]): Promise<void> {
    const file: AccountsFile = { version: 1, accounts, ...(this.localRemoved ? { localRemoved: true } : {}) }
    await writeFileAtomic(this.file, `${JSON.stringify(file, null, 2)}\n`)
    this.cache = accounts
  }
}
