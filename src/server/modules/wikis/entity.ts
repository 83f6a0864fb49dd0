import type { WikiAttachment, WikiPage, WikiPageBasic } from '../../../shared/api/wiki'
import { renderParagraphs } from '../../platform/text/markdown'
import { titleOfSlug, type PageFile } from './pages'

/** GitLab's WikiPageBasic: format, slug and title. */
export function wikiPageBasicEntity(page: PageFile): WikiPageBasic {
  return { format: page.format, slug: page.slug, title: titleOfSlug(page.slug) }
}

/**
 * GitLab's WikiPage: the page with its content as written, or as HTML with `renderHtml` (escaped
 * paragraphs here, not GitLab's rendering of each markup).
 */
export function wikiPageEntity(page: PageFile, content: string, renderHtml = false): WikiPage {
  return {
    ...wikiPageBasicEntity(page),
    content: renderHtml ? renderParagraphs(content) : content,
    encoding: 'UTF-8',
  }
}

/** Image extensions an attachment's Markdown link embeds (`![…](…)`) rather than links. */
const IMAGE = /\.(png|jpe?g|gif|bmp|svg|webp|ico|tiff?)$/i

/** GitLab's WikiAttachment: where the file was committed and how to link to it from a page. */
export function wikiAttachmentEntity(fileName: string, filePath: string, branch: string): WikiAttachment {
  const link = `[${fileName}](${filePath})`
  return {
    file_name: fileName,
    file_path: filePath,
    branch,
    link: { url: filePath, markdown: IMAGE.test(fileName) ? `!${link}` : link },
  }
}
