import { PASSPHRASE_MAX, PASSPHRASE_MIN, type SecretStorageStatus } from '../../shared/ipc/secrets'

// What core's `accounts:use-encrypted-file` accepts, for the passphrase form.
export { PASSPHRASE_MAX, PASSPHRASE_MIN }

export type KeychainPlatform = 'mac' | 'windows' | 'linux'

/** The OS this window runs on; the web host only listens on 127.0.0.1, so in browser mode it is core's too. */
export function keychainPlatform(
  nav: Pick<Navigator, 'userAgent'> | undefined = globalThis.navigator,
): KeychainPlatform {
  const agent = nav?.userAgent ?? ''
  if (/Mac|iPhone|iPad/.test(agent)) return 'mac'
  if (/Windows/.test(agent)) return 'windows'
  return 'linux'
}

/** The keychain @napi-rs/keyring uses on each OS, as its users know it. */
export function keychainName(platform: KeychainPlatform): string {
  if (platform === 'mac') return 'the macOS Keychain'
  if (platform === 'windows') return 'Windows Credential Manager'
  return 'the Secret Service (GNOME Keyring or KWallet)'
}

/** Where sign-ins go, as the Accounts view and the account form name it. */
export type StorageState = 'keychain' | 'keychain-unavailable' | 'file-unlocked' | 'file-locked'

/** Reads core's status as one of the four states the UI shows. */
export function storageState(status: SecretStorageStatus): StorageState {
  if (status.kind === 'encrypted-file') return status.encryptedFile.unlocked ? 'file-unlocked' : 'file-locked'
  return status.available ? 'keychain' : 'keychain-unavailable'
}

export type StrengthLevel = 'too-short' | 'weak' | 'fair' | 'strong'

export interface PassphraseStrength {
  readonly level: StrengthLevel
  /** 0–3, for the meter. */
  readonly score: number
  readonly hint: string
}

// Passwords and keyboard runs every guessing list starts with; one inside a passphrase adds little.
const COMMON = [
  'password',
  'passphrase',
  'passwort',
  'qwerty',
  'azerty',
  'asdf',
  'zxcv',
  'letmein',
  'iloveyou',
  'welcome',
  'admin',
  'secret',
  'monkey',
  'dragon',
  'burrow',
  'gitlab',
  'abc123',
  'changeme',
]
const RUNS = ['abcdefghijklmnopqrstuvwxyz', '0123456789', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm']

const isRun = (three: string): boolean =>
  (three[0] === three[1] && three[1] === three[2]) ||
  RUNS.some((run) => run.includes(three) || run.includes([...three].reverse().join('')))

/**
 * The text with runs of three or more (abcd, 4321, qwer, aaaa) cut to their first two
 * characters and a repeated block (abcabc) to one block. Two in a row ("st", "tt") are left
 * alone: ordinary words are full of them.
 */
function withoutPatterns(text: string): string {
  const lower = text.toLowerCase()
  let out = ''
  for (let i = 0; i < lower.length; i += 1) {
    if (i >= 2 && isRun(lower.slice(i - 2, i + 1))) continue
    out += lower[i] ?? ''
  }
  // A block repeated (abcabcabc, 1212): only the block counts.
  for (let size = 1; size <= out.length / 2; size += 1) {
    const block = out.slice(0, size)
    if (block.repeat(Math.ceil(out.length / size)).startsWith(out)) return block
  }
  return out
}

/** Bits a piece of the passphrase adds: a run of letters is probably a word, worth less than random letters. */
function tokenBits(token: string): number {
  if (token === '§') return 2
  if (/^[a-z]+$/.test(token)) return Math.min(token.length * 4.7, 10 + token.length * 1.5)
  if (/^[0-9]+$/.test(token)) return token.length * 3.3
  if (/^\s+$/.test(token)) return 1
  return token.length * 5
}

/**
 * A rough guess at how hard a passphrase is to guess, to nudge, never to refuse (core refuses
 * only what is shorter than 8): common passwords count for almost nothing, runs and repeats are
 * cut, a run of letters counts as a word rather than random letters, digits and symbols add
 * their share. Several unrelated words score well, as they should; one decorated word does not.
 */
export function passphraseStrength(passphrase: string): PassphraseStrength {
  if (passphrase.length < PASSPHRASE_MIN) {
    return {
      level: 'too-short',
      score: 0,
      hint: `Use at least ${PASSPHRASE_MIN} characters${passphrase.length > 0 ? ` (${PASSPHRASE_MIN - passphrase.length} more)` : ''}.`,
    }
  }
  let text = passphrase.toLowerCase()
  for (const word of COMMON) text = text.split(word).join('§')
  const tokens = withoutPatterns(text).match(/[a-z]+|[0-9]+|§|\s+|[^a-z0-9§\s]+/g) ?? []
  const capitals = Math.min((passphrase.match(/[A-Z]/g) ?? []).length, 5)
  const bits = tokens.reduce((sum, token) => sum + tokenBits(token), capitals)
  if (bits >= 60)
    return { level: 'strong', score: 3, hint: 'Strong. Keep it somewhere safe, such as a password manager.' }
  if (bits >= 40)
    return {
      level: 'fair',
      score: 2,
      hint: 'Fair. Another word or a few more characters would make it much harder to guess.',
    }
  return {
    level: 'weak',
    score: 1,
    hint: 'Easy to guess. A few unrelated words are easier to remember and harder to guess than one word with symbols.',
  }
}
