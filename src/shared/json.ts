/**
 * JSON objects as they arrive (an API answer, an IPC argument, a file read back): a type that
 * promises nothing about their fields, and the one check that a value is such an object.
 */

/** A JSON object: named fields of unknown values, read through checks, never trusted. */
export type JsonObject = Readonly<Record<string, unknown>>

/** Whether `value` is an object with fields: not null, not an array. */
export function isRecord(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
