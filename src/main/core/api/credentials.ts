import { Type, type Static } from 'typebox'
import type { OAuthTokenResponse } from '../../../shared/api/errors'
import { schemaGuard } from '../../../shared/ipc/schema-check'
import { UnauthorizedError, apiErrorFor, toNetworkError } from './errors'

/** A personal (or project) access token, sent as `PRIVATE-TOKEN`. */
export const PatCredential = Type.Object({ kind: Type.Literal('pat'), token: Type.String({ minLength: 1 }) })
export type PatCredential = Static<typeof PatCredential>

/** An OAuth2 token pair, sent as `Authorization: Bearer`; `expiresAt` in epoch milliseconds. */
export const OAuthCredential = Type.Object({
  kind: Type.Literal('oauth'),
  accessToken: Type.String(),
  refreshToken: Type.String(),
  expiresAt: Type.Number(),
})
export type OAuthCredential = Static<typeof OAuthCredential>

/** What the keychain keeps of a sign-in (as JSON). */
export const Credential = Type.Union([PatCredential, OAuthCredential])
export type Credential = Static<typeof Credential>

/** Refresh this long before the announced expiry, so a request does not race the clock. */
export const EXPIRY_SKEW_MS = 30_000

export function isExpired(credential: OAuthCredential, now = Date.now()): boolean {
  return credential.expiresAt - EXPIRY_SKEW_MS <= now
}

/** The headers that authenticate a request with `credential`. */
export function authHeaders(credential: Credential): Record<string, string> {
  return credential.kind === 'pat'
    ? { 'PRIVATE-TOKEN': credential.token }
    : { Authorization: `Bearer ${credential.accessToken}` }
}

/** Checks that an untrusted value (a parsed keychain entry) is a Credential. */
export const isCredential = schemaGuard(Credential)

export interface TokenRequestOptions {
  readonly fetch: typeof fetch
  readonly timeoutMs: number
}

type Grant =
  | { readonly grant_type: 'password'; readonly username: string; readonly password: string; readonly scope?: string }
  | { readonly grant_type: 'refresh_token'; readonly refresh_token: string }

/**
 * `POST {baseUrl}/oauth/token` (Doorkeeper). A refused grant becomes an UnauthorizedError with
 * a readable message; the password and tokens never appear in what is thrown.
 */
export async function requestOAuthToken(
  baseUrl: string,
  grant: Grant,
  options: TokenRequestOptions,
): Promise<OAuthCredential> {
  const url = `${baseUrl}/oauth/token`
  let response: Response
  try {
    response = await options.fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(grant),
      signal: AbortSignal.timeout(options.timeoutMs),
    })
  } catch (error) {
    // A token request that may have been processed only costs a new sign-in: not an outbox write.
    throw toNetworkError(error, 'POST', new URL(baseUrl).origin, true)
  }
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    /* not JSON: keep the text */
  }
  if (!response.ok) {
    const error = (body as { error?: unknown } | null)?.error
    if (error === 'invalid_grant') {
      const what =
        grant.grant_type === 'password'
          ? 'Sign-in refused: wrong username or password, or the account is blocked.'
          : 'The saved sign-in has expired or was revoked; sign in again.'
      throw new UnauthorizedError(response.status, body, what)
    }
    throw apiErrorFor(response.status, body)
  }
  const token = body as Partial<OAuthTokenResponse>
  if (typeof token.access_token !== 'string' || typeof token.refresh_token !== 'string') throw apiErrorFor(502, null)
  const expiresIn = typeof token.expires_in === 'number' ? token.expires_in : 7200
  return {
    kind: 'oauth',
    accessToken: token.access_token,
    refreshToken: token.refresh_token,
    expiresAt: Date.now() + expiresIn * 1000,
  }
}

/** `POST {baseUrl}/oauth/revoke`, best effort: a token we will not keep should not stay valid. */
export async function revokeOAuthToken(baseUrl: string, token: string, options: TokenRequestOptions): Promise<void> {
  try {
    const response = await options.fetch(`${baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ token }),
      signal: AbortSignal.timeout(options.timeoutMs),
    })
    await response.body?.cancel()
  } catch {
    /* best effort: the token expires on its own */
  }
}
