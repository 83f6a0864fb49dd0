/** Null for an absent, null or blank (whitespace only) text, the text itself otherwise: how optional fields are stored. */
export function blankToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value
}
