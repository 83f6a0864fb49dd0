/** `GET /user` and the public user entity (spec "Resources and their fields", User). */
export interface UserRef {
  readonly id: number
  readonly username: string
  readonly name: string
  readonly state: 'active' | 'blocked' | (string & {})
  readonly avatar_url: string | null
  readonly web_url: string
}

/** The signed-in user as `GET /user` returns it; administrators also get `is_admin` and `email`. */
export interface User extends UserRef {
  readonly created_at?: string
  readonly bio?: string | null
  readonly bot?: boolean
  readonly public_email?: string | null
  readonly email?: string
  readonly is_admin?: boolean
}
