/**
 * API errors with GitLab's status codes and bodies. Handlers throw these; the error
 * handler in app.ts renders them. Anything else thrown becomes a logged 500.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Readonly<Record<string, unknown>> | null,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(
      typeof body?.message === 'string'
        ? body.message
        : typeof body?.error === 'string'
          ? body.error
          : `HTTP ${statusCode}`,
    )
  }
}

/** 404 `{"message": "404 Project Not Found"}`, or `404 Not found` without a resource name. */
export function notFound(resource?: string): ApiError {
  return new ApiError(404, { message: resource ? `404 ${resource} Not Found` : '404 Not found' })
}

/** 400 `{"error": "title is missing"}` for a required parameter that was not given. */
export function missingParam(...params: string[]): ApiError {
  return new ApiError(400, { error: params.map((p) => `${p} is missing`).join(', ') })
}

/**
 * 400 `{"error": "a, b are missing, at least one parameter must be provided"}`: none of the
 * parameters of which a request needs one was given (Grape's `at_least_one_of`).
 */
export function noneGiven(params: readonly string[]): ApiError {
  return paramError(`${params.join(', ')} are missing, at least one parameter must be provided`)
}

/** 400 `{"error": "visibility does not have a valid value"}`-style errors about one parameter. */
export function invalidParam(param: string, reason = 'is invalid'): ApiError {
  return new ApiError(400, { error: `${param} ${reason}` })
}

/** 400 `{"error": "..."}` for mutually exclusive or otherwise bad parameter combinations. */
export function paramError(text: string): ApiError {
  return new ApiError(400, { error: text })
}

/** 400 `{"message": "400 Bad request - reason"}`. */
export function badRequest(reason?: string): ApiError {
  return new ApiError(400, { message: reason ? `400 Bad request - ${reason}` : '400 Bad request' })
}

/** 400 with a plain message, as GitLab's `render_api_error!(message, 400)`. */
export function apiMessage(statusCode: number, message: unknown): ApiError {
  return new ApiError(statusCode, { message })
}

/** 400 `{"message": {"name": ["has already been taken"]}}`: model validation errors. */
export function validationFailed(errors: Readonly<Record<string, readonly string[]>>): ApiError {
  return new ApiError(400, { message: errors })
}

/**
 * Validation messages per field, gathered while a write is checked and refused together (GitLab
 * shows every failing field at once, as its model errors do).
 */
export class FieldErrors {
  private readonly messages: Record<string, string[]> = {}

  /** Notes one failing rule of `field`. */
  add(field: string, message: string): void {
    ;(this.messages[field] ??= []).push(message)
  }

  /** 400 `{"message": {field: [...]}}` when any rule failed; nothing otherwise. */
  throwIfAny(): void {
    if (Object.keys(this.messages).length > 0) throw validationFailed(this.messages)
  }
}

export function unauthorized(): ApiError {
  return new ApiError(401, { message: '401 Unauthorized' })
}

/** 403 `{"message": "403 Forbidden"}`, with the reason appended when given. */
export function forbidden(reason?: string): ApiError {
  return new ApiError(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' })
}

export function conflict(message: string): ApiError {
  return new ApiError(409, { message })
}

export function notModified(): ApiError {
  return new ApiError(304, null)
}

export function preconditionFailed(): ApiError {
  return new ApiError(412, { message: '412 Precondition Failed' })
}

export function unprocessable(message: unknown): ApiError {
  return new ApiError(422, { message })
}

export function tooManyRequests(retryAfterSeconds: number): ApiError {
  return new ApiError(429, { message: 'Retry later' }, { 'Retry-After': String(retryAfterSeconds) })
}

export function insufficientScope(scope: string): ApiError {
  return new ApiError(403, {
    error: 'insufficient_scope',
    error_description: 'The request requires higher privileges than provided by the access token.',
    scope,
  })
}
