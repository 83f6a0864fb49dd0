/** The longest account id a request may name: ids are short, and this bounds what a caller can send. */
export const MAX_ACCOUNT_ID_LENGTH = 200

/** Whether `value` can name an account in a request: a non-empty string of at most 200 characters. */
export function isAccountId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ACCOUNT_ID_LENGTH
}
