import type { ProtectedTag } from '../../../shared/api/protected-tag'
import type { ProtectedTagRow } from './queries'

const ROLE_DESCRIPTIONS: Readonly<Record<number, string>> = {
  0: 'No one',
  30: 'Developers + Maintainers',
  40: 'Maintainers',
}

/** GitLab's ProtectedTag entity. */
export function protectedTagEntity(tag: ProtectedTagRow): ProtectedTag {
  return {
    name: tag.name,
    create_access_levels: tag.createAccess.map((a) => ({
      id: a.id,
      access_level: a.access_level,
      access_level_description: ROLE_DESCRIPTIONS[a.access_level] ?? '',
      user_id: null,
      group_id: null,
      deploy_key_id: null,
    })),
  }
}
