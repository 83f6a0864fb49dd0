import { redactSecrets } from './log-file'

/*
 * "Copy diagnostics": what a bug report needs and nothing private. Versions, the platform, the
 * hosts of the user's accounts (not their usernames, never a token) and the last log lines,
 * redacted once more on the way out.
 */

export interface DiagnosticsFacts {
  readonly appVersion: string
  readonly mode: string
  /** process.versions: electron, chrome, node, v8 where present. */
  readonly versions: Readonly<Record<string, string | undefined>>
  readonly platform: string
  readonly arch: string
  readonly osRelease: string
  readonly accounts: readonly { readonly baseUrl: string; readonly kind?: string }[]
  readonly logLines: readonly string[]
}

function hostOf(baseUrl: string): string {
  try {
    const url = new URL(baseUrl)
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`
  } catch {
    return '(not a URL)'
  }
}

/** The diagnostics text, ready for the clipboard. */
export function diagnosticsReport(facts: DiagnosticsFacts): string {
  const runtimes = ['electron', 'chrome', 'node', 'v8']
    .filter((name) => facts.versions[name] !== undefined)
    .map((name) => `${name} ${facts.versions[name]}`)
  const accounts = facts.accounts.map(
    (a) => `- ${hostOf(a.baseUrl)}${a.kind === 'local' ? ' (local Burrow Server)' : ''}`,
  )
  const lines = [
    `Burrow ${facts.appVersion} (${facts.mode})`,
    `Runtime: ${runtimes.join(', ')}`,
    `Platform: ${facts.platform} ${facts.arch} ${facts.osRelease}`,
    '',
    `Accounts (${facts.accounts.length}):`,
    ...(accounts.length > 0 ? accounts : ['- none']),
    '',
    `Recent log lines (${facts.logLines.length}):`,
    ...facts.logLines,
  ]
  return redactSecrets(lines.join('\n'))
}
