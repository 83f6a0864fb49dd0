import { IpcFailure, type IpcError } from '../../shared/ipc/contract'

/** An error as the UI shows it: a title saying what happened, the detail, and what to do. */
export interface ReadableError {
  readonly code: string
  readonly title: string
  readonly message: string
  readonly hint: string | null
  readonly details?: unknown
}

interface Explanation {
  readonly title: string | ((error: IpcError) => string)
  readonly hint: string | null | ((error: IpcError) => string | null)
}

/** An offline read that has no saved copy (core's URL cache says `details.read: 'not-saved'`), not a refused write. */
const notSaved = (error: IpcError): boolean => (error.details as { read?: unknown } | undefined)?.read === 'not-saved'

function networkHint(error: IpcError): string {
  const failure = (error.details as { failure?: unknown } | undefined)?.failure
  if (failure === 'tls')
    return 'The server’s certificate is not trusted. For a self-managed instance with its own certificate authority, give its CA file under Advanced.'
  if (failure === 'dns') return 'Check the address: the host name was not found.'
  if (failure === 'refused')
    return 'Nothing answered at that address. Check the URL and port, and that the server is running.'
  if (failure === 'timeout') return 'The server took too long to answer. Check your connection and try again.'
  return 'Check the address and your network connection, then try again.'
}

// Codes come from core (dispatch.ts, accounts, api/errors.ts); unknown ones fall back to a generic title.
const EXPLANATIONS: Readonly<Record<string, Explanation>> = {
  'invalid-credentials': {
    title: 'Sign-in refused',
    hint: 'Create a new personal access token with the api scope, or sign in with your username and password.',
  },
  unauthorized: {
    title: 'Sign-in refused',
    hint: 'The saved sign-in no longer works: remove the account and add it again.',
  },
  'network-error': { title: 'Cannot reach the server', hint: networkHint },
  'keychain-unavailable': {
    title: 'No keychain available',
    hint: 'Burrow keeps tokens in the system keychain. Unlock or install one (GNOME Keyring, KWallet, macOS Keychain, Windows Credential Manager) and try again, or save sign-ins in an encrypted file protected by a passphrase (Accounts).',
  },
  // The encrypted sign-in file (core/accounts/secret-storage.ts).
  'secrets-locked': {
    title: 'Sign-ins locked',
    hint: 'This account’s sign-in is in the encrypted file, which is still locked: unlock it with its passphrase (Accounts, or the banner at the top).',
  },
  'wrong-passphrase': { title: 'Wrong passphrase', hint: 'Check Caps Lock and the keyboard layout, then try again.' },
  'secret-missing': {
    title: 'Saved sign-in missing',
    hint: 'The keychain no longer has this account’s token: remove the account and add it again.',
  },
  'duplicate-account': { title: 'Already signed in', hint: 'This user on this instance is already in your accounts.' },
  'account-not-found': { title: 'Account not found', hint: 'It may have been removed in another window.' },
  'invalid-url': {
    title: 'Not a valid instance address',
    hint: 'Use the address you open in the browser, such as https://gitlab.example.com.',
  },
  'invalid-arguments': { title: 'Burrow rejected the request', hint: null },
  unavailable: {
    title: 'Burrow is not connected',
    hint: 'This window cannot reach Burrow’s background process. Restart Burrow; in browser mode, open the address `npm start` printed.',
  },
  'unknown-channel': {
    title: 'Not supported by this version',
    hint: 'This part of Burrow is newer than the process serving it. Restart Burrow.',
  },
  // GitLab answers 403 both for a missing role and for a state that forbids it (a job already retried).
  forbidden: { title: 'Not allowed', hint: 'Your role here, or the state it is in, does not allow this.' },
  'not-found': { title: 'Not found', hint: 'It was deleted, moved, or you no longer have access.' },
  conflict: { title: 'Conflict', hint: null },
  validation: { title: 'The server did not accept this', hint: null },
  'precondition-failed': {
    title: 'Changed on the server',
    hint: 'Someone changed this since it was loaded. Reload and try again.',
  },
  'rate-limited': {
    title: 'Too many requests',
    hint: 'The server asked Burrow to slow down; it will retry by itself.',
  },
  offline: {
    title: (e) => (notSaved(e) ? 'Not saved on this device' : 'Needs the server'),
    hint: (e) =>
      notSaved(e)
        ? 'Open it again once the instance can be reached; Burrow then keeps a copy for the next time you are offline.'
        : 'Changes here go straight to the server and are not kept for later: try again once the instance can be reached.',
  },
  'outcome-unknown': {
    title: 'Not sure it went through',
    hint: 'The connection dropped after the request left. Reload to see whether the change took effect before trying again.',
  },
  'not-cached': {
    title: 'Not saved on this device',
    hint: 'Open it once while online so Burrow keeps a copy; after that it can be changed offline too.',
  },
  'entry-not-found': { title: 'No longer in the outbox', hint: 'It was sent, discarded or removed meanwhile.' },
  'invalid-state': {
    title: 'Not possible right now',
    hint: 'It changed meanwhile: look again and use what it offers now.',
  },
  'api-error': { title: 'The server answered with an error', hint: null },
  'handler-failed': { title: 'Something went wrong', hint: null },
  // The repository browser's (core/repos).
  'not-cloned': { title: 'Not cloned', hint: 'Clone the repository to read it on this computer, also offline.' },
  'empty-repository': {
    title: 'Nothing to browse yet',
    hint: 'The repository has no commits. Push a first commit, then fetch.',
  },
  'not-a-file': { title: 'Not a file', hint: 'Open it as a directory instead.' },
  'not-a-directory': { title: 'Not a directory', hint: 'Open it as a file instead.' },
  'clone-failed': {
    title: 'The clone or fetch failed',
    hint: 'Try again; if it keeps failing, remove the clone and clone it again.',
  },
  cancelled: { title: 'Cancelled', hint: null },
}

function asIpcError(error: unknown): IpcError {
  if (error instanceof IpcFailure) return error.toJSON()
  if (
    error !== null &&
    typeof error === 'object' &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  ) {
    return error as IpcError
  }
  return { code: 'handler-failed', message: error instanceof Error ? error.message : String(error) }
}

/** Turns whatever a bridge request threw into what the error display shows. */
export function toReadableError(error: unknown): ReadableError {
  const ipc = asIpcError(error)
  const explanation = EXPLANATIONS[ipc.code] ?? EXPLANATIONS['handler-failed']
  const title = typeof explanation.title === 'function' ? explanation.title(ipc) : explanation.title
  const hint = typeof explanation.hint === 'function' ? explanation.hint(ipc) : explanation.hint
  return {
    code: ipc.code,
    title,
    message: ipc.message,
    hint,
    ...(ipc.details === undefined ? {} : { details: ipc.details }),
  }
}

/**
 * The title and hint of a code as one sentence pair, for a state the UI knows before asking
 * (writes disabled while offline) rather than an error a request returned.
 */
export function explainCode(code: string): string {
  const readable = toReadableError({ code, message: '' })
  return readable.hint === null ? `${readable.title}.` : `${readable.title}: ${readable.hint}`
}
