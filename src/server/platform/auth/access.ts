/** GitLab's access levels. Owner (50) exists on groups and, for personal projects, the namespace owner. */
export const AccessLevel = {
  NO_ACCESS: 0,
  MINIMAL_ACCESS: 5,
  GUEST: 10,
  REPORTER: 20,
  DEVELOPER: 30,
  MAINTAINER: 40,
  OWNER: 50,
  /** Used only by protected environments and protected branches: administrators. */
  ADMIN: 60,
} as const

export type AccessLevelValue = (typeof AccessLevel)[keyof typeof AccessLevel]

export const MEMBER_ACCESS_LEVELS: readonly number[] = [5, 10, 20, 30, 40, 50]

const NAMES: Readonly<Record<number, string>> = {
  0: 'No access',
  5: 'Minimal Access',
  10: 'Guest',
  20: 'Reporter',
  30: 'Developer',
  40: 'Maintainer',
  50: 'Owner',
  60: 'Administrator',
}

/** Human name of an access level ("Developer"), as GitLab's `access_level_description`. */
export function accessLevelName(level: number): string {
  return NAMES[level] ?? `Level ${level}`
}
