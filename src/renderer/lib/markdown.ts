import DOMPurify from 'dompurify'
import hljs from 'highlight.js/lib/common'
import { Marked, type Tokens, type TokenizerAndRendererExtension } from 'marked'

/**
 * GitLab-flavoured Markdown for descriptions, notes and comments: CommonMark + GFM (tables,
 * task lists, strikethrough, autolinks), GitLab references (`#12`, `!3`, `&4`, `~label`,
 * `%milestone`, `@user`, `group/project#12`) turned into links inside the app, code
 * highlighted by highlight.js, and the result sanitised by DOMPurify: no script, no event
 * handler, no inline style, no form, and no remote image fetched behind the user's back.
 */

export type ReferenceKind = 'issue' | 'merge_request' | 'epic' | 'label' | 'milestone' | 'user'

/** A GitLab reference found in Markdown text. */
export interface Reference {
  readonly kind: ReferenceKind
  /** `group/project` (or `group` for epics) when the reference names one; null: the current one. */
  readonly namespace: string | null
  /** The iid (issues, merge requests, epics) or the id (`~12`, `%12`); null for names. */
  readonly id: number | null
  /** Label or milestone title, or username, when referenced by name. */
  readonly name: string | null
  /** The text as written (`group/project#12`, `~"needs review"`). */
  readonly text: string
}

export interface MarkdownOptions {
  /** The in-app address of a reference, or null to leave it as text (unknown project, no route yet). */
  readonly resolveReference?: (reference: Reference) => string | null
}

// A namespace path: GitLab's path characters, segments separated by '/'.
const PATH = String.raw`[A-Za-z0-9_][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*`
const NAME = String.raw`(?:"([^"\n]+)"|([A-Za-z0-9_][A-Za-z0-9_.\-:?&]*[A-Za-z0-9_]|[A-Za-z0-9_]))`

const ISSUABLE = new RegExp(String.raw`^(${PATH})?([#!&])(\d+)(?![\w])`)
const LABEL = new RegExp(String.raw`^~(?:(\d+)(?![\w"])|${NAME})`)
const MILESTONE = new RegExp(String.raw`^%(?:(\d+)(?![\w"])|${NAME})`)
const USER = /^@([A-Za-z0-9_][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*[A-Za-z0-9_]|[A-Za-z0-9_])(?![\w])/

// Where a reference may begin: at the start of the text or after something that is not part of a word.
const START = /(^|[^\w/.@~%#!&"-])(?:[A-Za-z0-9_][A-Za-z0-9_.\-/]*[#!&]\d|[#!&]\d|~["\w]|%["\w]|@\w)/

const KIND_BY_SIGIL: Readonly<Record<string, ReferenceKind>> = { '#': 'issue', '!': 'merge_request', '&': 'epic' }

interface ReferenceToken extends Tokens.Generic {
  readonly type: 'gitlabReference'
  readonly raw: string
  readonly reference: Reference
}

/** Parses a reference at the very start of `src`, or returns null. Exported for tests. */
export function parseReference(src: string): Reference | null {
  const issuable = ISSUABLE.exec(src)
  if (issuable) {
    return {
      kind: KIND_BY_SIGIL[issuable[2]],
      namespace: issuable[1] ?? null,
      id: Number(issuable[3]),
      name: null,
      text: issuable[0],
    }
  }
  const label = LABEL.exec(src)
  if (label)
    return {
      kind: 'label',
      namespace: null,
      id: label[1] ? Number(label[1]) : null,
      name: label[2] ?? label[3] ?? null,
      text: label[0],
    }
  const milestone = MILESTONE.exec(src)
  if (milestone)
    return {
      kind: 'milestone',
      namespace: null,
      id: milestone[1] ? Number(milestone[1]) : null,
      name: milestone[2] ?? milestone[3] ?? null,
      text: milestone[0],
    }
  const user = USER.exec(src)
  if (user) return { kind: 'user', namespace: null, id: null, name: user[1], text: user[0] }
  return null
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function referenceExtension(options: MarkdownOptions): TokenizerAndRendererExtension {
  return {
    name: 'gitlabReference',
    level: 'inline',
    start(src) {
      const match = START.exec(src)
      return match ? match.index + match[1].length : undefined
    },
    tokenizer(src, tokens): ReferenceToken | undefined {
      // Never a link inside a link's text.
      if (this.lexer.state.inLink) return undefined
      // Only where a word cannot continue: `a#1` and `foo@bar` stay text.
      const previous = tokens.at(-1)
      if (previous !== undefined && 'raw' in previous && /[\w/.-]$/.test(previous.raw) && previous.type === 'text')
        return undefined
      const reference = parseReference(src)
      if (reference === null) return undefined
      return { type: 'gitlabReference', raw: reference.text, reference }
    },
    renderer(token) {
      const { reference } = token as ReferenceToken
      const text = escapeHtml(reference.text)
      const href = options.resolveReference?.(reference) ?? null
      const attributes = `class="gl-reference gl-reference--${reference.kind}" data-reference-kind="${reference.kind}"`
      return href === null
        ? `<span ${attributes}>${text}</span>`
        : `<a ${attributes} href="${escapeHtml(href)}">${text}</a>`
    },
  }
}

function highlight(code: string, lang: string | undefined): string {
  const language = lang?.trim().split(/\s+/)[0]?.toLowerCase()
  if (language && hljs.getLanguage(language)) {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value
  }
  return escapeHtml(code)
}

function createMarked(options: MarkdownOptions): Marked {
  const marked = new Marked({ gfm: true, breaks: false, async: false })
  marked.use({
    extensions: [referenceExtension(options)],
    renderer: {
      code({ text, lang }) {
        const language = lang?.trim().split(/\s+/)[0] ?? ''
        const languageClass = language ? ` language-${escapeHtml(language)}` : ''
        return `<pre class="gl-code"><code class="hljs${languageClass}">${highlight(text, lang)}</code></pre>\n`
      },
    },
  })
  return marked
}

/**
 * Only inline `data:image/` sources load by themselves. Everything else is remote: a forge's
 * `/uploads/…` is relative to the forge, not to this page, and the CSP would block it anyway.
 */
function loadsByItself(src: string): boolean {
  return /^data:image\/(?:png|gif|jpeg|webp);/i.test(src)
}

let hooksInstalled = false

/** DOMPurify hooks are global to its instance: installed once, they only touch what they mark. */
function installHooks(): void {
  if (hooksInstalled) return
  hooksInstalled = true
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element
    if (element.tagName === 'A') {
      const href = element.getAttribute('href')
      // In-app links are fragments (hash history); everything else leaves the app.
      if (href !== null && !href.startsWith('#')) {
        element.setAttribute('target', '_blank')
        element.setAttribute('rel', 'noopener noreferrer nofollow')
      }
    } else if (element.tagName === 'INPUT') {
      // Task-list checkboxes only, and read-only: toggling a task is an explicit action elsewhere.
      if (element.getAttribute('type') !== 'checkbox') {
        element.remove()
        return
      }
      element.setAttribute('disabled', '')
      element.removeAttribute('name')
      element.removeAttribute('value')
    } else if (element.tagName === 'IMG') {
      const src = element.getAttribute('src') ?? ''
      if (!loadsByItself(src)) {
        // Loading it would tell its host who reads this, and when: offer it as a link instead.
        const link = element.ownerDocument.createElement('a')
        link.setAttribute('href', src)
        link.setAttribute('class', 'gl-remote-image')
        link.setAttribute('target', '_blank')
        link.setAttribute('rel', 'noopener noreferrer nofollow')
        link.textContent = `Image: ${element.getAttribute('alt') || src}`
        element.replaceWith(link)
      }
    }
  })
}

const SANITIZE_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'style',
    'form',
    'button',
    'select',
    'textarea',
    'iframe',
    'object',
    'embed',
    'link',
    'meta',
    'base',
    'svg',
    'math',
  ],
  FORBID_ATTR: ['style', 'srcset', 'formaction', 'autofocus', 'id', 'name'],
  ALLOW_DATA_ATTR: false,
  ADD_ATTR: ['target', 'data-reference-kind'],
}

/** Sanitises HTML with the rules above. Exported for content that arrives already rendered. */
export function sanitizeHtml(html: string): string {
  installHooks()
  return DOMPurify.sanitize(html, SANITIZE_CONFIG)
}

/** Renders GitLab-flavoured Markdown to safe HTML. */
export function renderMarkdown(source: string, options: MarkdownOptions = {}): string {
  const html = createMarked(options).parse(source) as string
  return sanitizeHtml(html)
}

/**
 * Renders one line of GitLab-flavoured Markdown (a system note) to safe inline HTML: no
 * paragraphs or blocks, and GitLab's inline-diff markers (`{+added+}`, `{-removed-}`) as
 * `<ins>` and `<del>`.
 */
export function renderInlineMarkdown(source: string, options: MarkdownOptions = {}): string {
  const marked = source.replace(/\{\+([\s\S]+?)\+\}/g, '<ins>$1</ins>').replace(/\{-([\s\S]+?)-\}/g, '<del>$1</del>')
  return sanitizeHtml(createMarked(options).parseInline(marked) as string)
}
