/**
 * Error bodies the v4 API answers with (spec "Errors"): `{message: "404 Not Found"}`,
 * `{message: {field: ["is invalid"]}}` for validation, `{error: "title is missing"}` for bad
 * parameters, and OAuth's `{error, error_description}`.
 */
export interface MessageErrorBody {
  readonly message: string | { readonly [field: string]: readonly string[] | string }
}

export interface ParamErrorBody {
  readonly error: string
  readonly error_description?: string
  readonly scope?: string
}

export type ApiErrorBody = MessageErrorBody | ParamErrorBody

/** The OAuth2 token endpoint's answer (`POST /oauth/token`). */
export interface OAuthTokenResponse {
  readonly access_token: string
  readonly token_type: string
  readonly expires_in: number
  readonly refresh_token: string
  readonly scope: string
  readonly created_at: number
}
