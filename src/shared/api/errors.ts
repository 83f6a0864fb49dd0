/**
 * Error bodies the v4 API answers with (spec "Errors"): `{message: "404 Not Found"}`,
 * `{message: {field: ["is invalid"]}}` for validation, `{error: "title is missing"}` for bad
 * parameters, and OAuth's `{error, error_description}`.
 */
import { Type, type Static } from 'typebox'

/** `{message}`: a text, or messages per field (validation). Some refusals add fields (review apps' entries). */
export const MessageErrorBody = Type.Object({
  message: Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())]),
})
export type MessageErrorBody = Static<typeof MessageErrorBody>

/** `{error}`: a bad parameter, or an OAuth error with its description (and the missing scope). */
export const ParamErrorBody = Type.Object({
  error: Type.String(),
  error_description: Type.Optional(Type.String()),
  scope: Type.Optional(Type.String()),
})
export type ParamErrorBody = Static<typeof ParamErrorBody>

export const ApiErrorBody = Type.Union([MessageErrorBody, ParamErrorBody])
export type ApiErrorBody = Static<typeof ApiErrorBody>

/** Kept here for the core's existing import; the OAuth shapes live in oauth.ts. */
export { OAuthTokenResponse } from './oauth'
