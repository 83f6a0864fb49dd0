/**
 * How wiki pages are files of the wiki repository, as GitLab (Gollum before it) names them: a
 * page's path is its title with spaces as hyphens plus its format's extension, its slug the path
 * without the extension, its title the last part of the slug with hyphens as spaces. Pure.
 */

/** The formats a page can be written in, as the API names them. */
export const WIKI_FORMATS = ['markdown', 'rdoc', 'asciidoc', 'org'] as const
export type WikiFormat = (typeof WIKI_FORMATS)[number]

/** The extension a new page of each format gets. */
const EXTENSION: Readonly<Record<WikiFormat, string>> = {
  markdown: 'md',
  rdoc: 'rdoc',
  asciidoc: 'asciidoc',
  org: 'org',
}

/** Every extension read as a page, with its format. */
const FORMAT_OF_EXTENSION: Readonly<Record<string, WikiFormat>> = {
  md: 'markdown',
  markdown: 'markdown',
  rdoc: 'rdoc',
  asciidoc: 'asciidoc',
  adoc: 'asciidoc',
  org: 'org',
}

/** Where attachments are committed; files there are not pages. */
export const UPLOADS_DIR = 'uploads'

/** A page file of the wiki repository. */
export interface PageFile {
  readonly path: string
  readonly slug: string
  readonly format: WikiFormat
}

/** The page a repository file is, or null for other files (attachments, images, unknown formats). */
export function pageOfPath(path: string): PageFile | null {
  if (path.startsWith(`${UPLOADS_DIR}/`)) return null
  const dot = path.lastIndexOf('.')
  if (dot <= path.lastIndexOf('/') + 1) return null
  const format = FORMAT_OF_EXTENSION[path.slice(dot + 1).toLowerCase()]
  return format === undefined ? null : { path, slug: path.slice(0, dot), format }
}

/** A page's title: the last part of its slug, hyphens read as spaces. */
export function titleOfSlug(slug: string): string {
  return slug.slice(slug.lastIndexOf('/') + 1).replace(/-/g, ' ')
}

/** The slug a title makes: its parts trimmed, spaces as hyphens (`Deploy notes/How to` → `Deploy-notes/How-to`). */
export function slugOfTitle(title: string): string {
  return title
    .split('/')
    .map((part) => part.trim().replace(/\s+/g, '-'))
    .join('/')
}

/** The file a page of this slug and format is written to. */
export function pathOf(slug: string, format: WikiFormat): string {
  return `${slug}.${EXTENSION[format]}`
}

/**
 * The slug of a renamed page: a title naming a directory (`a/b`) is the whole path, a plain title
 * keeps the page in its directory.
 */
export function renamedSlug(currentSlug: string, title: string): string {
  const slug = slugOfTitle(title)
  if (slug.includes('/')) return slug
  const dir = currentSlug.lastIndexOf('/')
  return dir < 0 ? slug : `${currentSlug.slice(0, dir)}/${slug}`
}
