/**
 * Project wikis (GitLab's Wikis API): pages of the `<project>.wiki.git` repository and the
 * attachments uploaded into it.
 */
import { Type, type Static } from 'typebox'
import { Entity } from './common'

/** The formats a page can be written in. */
export const WikiFormat = Type.Enum(['markdown', 'rdoc', 'asciidoc', 'org'])
export type WikiFormat = Static<typeof WikiFormat>

const basicFields = {
  format: WikiFormat,
  /** The page's path without its extension (`Deploy-notes/How-to`): what the single routes take. */
  slug: Type.String(),
  /** The last part of the slug, hyphens as spaces. */
  title: Type.String(),
}

/** A page as lists show it without `with_content` (GitLab's WikiPageBasic). */
export const WikiPageBasic = Entity(basicFields)
export type WikiPageBasic = Static<typeof WikiPageBasic>

/** A page with its content (GitLab's WikiPage): the text as written, or HTML with `render_html`. */
export const WikiPage = Entity({ ...basicFields, content: Type.String(), encoding: Type.Literal('UTF-8') })
export type WikiPage = Static<typeof WikiPage>

/** An attachment committed to the wiki (GitLab's WikiAttachment). */
export const WikiAttachment = Entity({
  file_name: Type.String(),
  /** `uploads/<32 hex>/<file name>` in the wiki repository. */
  file_path: Type.String(),
  branch: Type.String(),
  link: Entity({ url: Type.String(), markdown: Type.String() }),
})
export type WikiAttachment = Static<typeof WikiAttachment>
