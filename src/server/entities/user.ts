import type { UserRow } from '../db/rows'

/** `user_ref`: the basic user shape embedded everywhere (authors, assignees, members). */
export interface UserRef {
  readonly id: number
  readonly username: string
  readonly name: string
  readonly state: string
  readonly locked: boolean
  readonly avatar_url: string | null
  readonly web_url: string
}

export function userWebUrl(baseUrl: string, username: string): string {
  return `${baseUrl}/${username}`
}

/** GitLab's UserBasic entity. */
export function userRef(user: UserRow, baseUrl: string): UserRef {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: false,
    avatar_url: user.avatar_url,
    web_url: userWebUrl(baseUrl, user.username),
  }
}

/** A user_ref for rows that may have been deleted (null stays null). */
export function userRefOrNull(user: UserRow | undefined | null, baseUrl: string): UserRef | null {
  return user ? userRef(user, baseUrl) : null
}
