import type { Badge, BadgePreview } from '../../../shared/api/badge'
import type { BadgeRow } from './queries'

/** A badge's URLs, as stored and with their placeholders filled in. */
export interface RenderedUrls {
  readonly name: string | null
  readonly link_url: string
  readonly image_url: string
  readonly rendered_link_url: string
  readonly rendered_image_url: string
}

/** GitLab's BasicBadgeDetails. */
export function badgePreviewEntity(urls: RenderedUrls): BadgePreview {
  return {
    name: urls.name,
    link_url: urls.link_url,
    image_url: urls.image_url,
    rendered_link_url: urls.rendered_link_url,
    rendered_image_url: urls.rendered_image_url,
  }
}

/** GitLab's Badge entity: `kind` says whether the badge is the project's own or a group's. */
export function badgeEntity(row: BadgeRow, urls: RenderedUrls): Badge {
  return { id: row.id, ...badgePreviewEntity(urls), kind: row.project_id === null ? 'group' : 'project' }
}
