// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { parseReference, renderMarkdown, sanitizeHtml, type Reference } from '../../../src/renderer/lib/markdown'

const toRoute = (r: Reference): string | null => {
  if (r.kind === 'issue') return `#/p/${r.namespace ?? 'here'}/-/issues/${r.id}`
  if (r.kind === 'merge_request') return `#/p/${r.namespace ?? 'here'}/-/merge_requests/${r.id}`
  if (r.kind === 'label') return `#/issues?labels=${encodeURIComponent(r.name ?? String(r.id))}`
  return null
}

function dom(html: string): HTMLElement {
  const div = document.createElement('div')
  div.innerHTML = html
  return div
}

describe('parseReference', () => {
  it('reads issues, merge requests and epics with an optional namespace', () => {
    expect(parseReference('#12 rest')).toMatchObject({ kind: 'issue', namespace: null, id: 12, text: '#12' })
    expect(parseReference('!3')).toMatchObject({ kind: 'merge_request', id: 3 })
    expect(parseReference('group/sub/project#7,')).toMatchObject({
      kind: 'issue',
      namespace: 'group/sub/project',
      id: 7,
      text: 'group/sub/project#7',
    })
    expect(parseReference('gitlab-org&4')).toMatchObject({ kind: 'epic', namespace: 'gitlab-org', id: 4 })
  })

  it('reads labels and milestones by id, single word or quoted name, and user mentions', () => {
    expect(parseReference('~bug.')).toMatchObject({ kind: 'label', id: null, name: 'bug' })
    expect(parseReference('~"needs review" x')).toMatchObject({
      kind: 'label',
      name: 'needs review',
      text: '~"needs review"',
    })
    expect(parseReference('~priority::high')).toMatchObject({ kind: 'label', name: 'priority::high' })
    expect(parseReference('~42')).toMatchObject({ kind: 'label', id: 42, name: null })
    expect(parseReference('%"Release 1.0"')).toMatchObject({ kind: 'milestone', name: 'Release 1.0' })
    expect(parseReference('%v1.2')).toMatchObject({ kind: 'milestone', name: 'v1.2' })
    expect(parseReference('@alice.')).toMatchObject({ kind: 'user', name: 'alice', text: '@alice' })
  })

  it('returns null for what only looks like a reference', () => {
    expect(parseReference('#abc')).toBeNull()
    expect(parseReference('#12abc')).toBeNull()
    expect(parseReference('~ bug')).toBeNull()
  })
})

describe('renderMarkdown', () => {
  it('links issue and merge request references inside the app', () => {
    const root = dom(renderMarkdown('Fixes #12 and group/app!3.', { resolveReference: toRoute }))
    const links = [...root.querySelectorAll('a.gl-reference')]
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target')])).toEqual([
      ['#12', '#/p/here/-/issues/12', null],
      ['group/app!3', '#/p/group/app/-/merge_requests/3', null],
    ])
  })

  it('leaves a reference as text when it has no address', () => {
    const root = dom(renderMarkdown('ping @alice', { resolveReference: toRoute }))
    expect(root.querySelector('a')).toBeNull()
    expect(root.querySelector('span.gl-reference--user')?.textContent).toBe('@alice')
  })

  it('does not find references inside code, URLs, words or link text', () => {
    const html = renderMarkdown(
      '`#1` https://example.com/x#2 a@b.c 100% [see #3](https://example.com)\n\n```\n#4\n```',
      { resolveReference: toRoute },
    )
    expect(dom(html).querySelectorAll('.gl-reference')).toHaveLength(0)
  })

  it('renders task lists as read-only checkboxes', () => {
    const root = dom(renderMarkdown('- [x] done\n- [ ] todo'))
    const boxes = [...root.querySelectorAll('input')]
    expect(boxes.map((b) => [b.getAttribute('type'), b.hasAttribute('checked'), b.hasAttribute('disabled')])).toEqual([
      ['checkbox', true, true],
      ['checkbox', false, true],
    ])
  })

  it('removes scripts, event handlers, javascript: links, inline styles and forms', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script><img src="data:image/png;base64,AA==" onerror="alert(2)"><a href="javascript:alert(3)">x</a><p style="position:fixed">y</p><form action="/x"><input type="text" name="q"></form>[z](javascript:alert(4))',
    )
    const root = dom(html)
    const attributes = [...root.querySelectorAll('*')].flatMap((el) =>
      [...el.attributes].map((a) => `${a.name}=${a.value}`),
    )
    expect(root.querySelector('script, form, input')).toBeNull()
    expect(attributes.filter((a) => /^on|^style=|javascript:/i.test(a))).toEqual([])
    expect(root.querySelector('a[href]')).toBeNull()
  })

  it('offers remote images as links instead of loading them', () => {
    const root = dom(renderMarkdown('![diagram](https://tracker.example.com/pixel.png)'))
    expect(root.querySelector('img')).toBeNull()
    const link = root.querySelector('a.gl-remote-image')
    expect(link?.getAttribute('href')).toBe('https://tracker.example.com/pixel.png')
    expect(link?.textContent).toBe('Image: diagram')
  })

  it('keeps inline data images', () => {
    expect(
      dom(renderMarkdown('![dot](data:image/png;base64,iVBORw0KGgo=)')).querySelector('img')?.getAttribute('alt'),
    ).toBe('dot')
  })

  it('opens external links outside the app, without a referrer', () => {
    const link = dom(renderMarkdown('[docs](https://docs.example.com)')).querySelector('a')
    expect(link?.getAttribute('target')).toBe('_blank')
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer nofollow')
  })

  it('highlights fenced code in a known language and escapes an unknown one', () => {
    const root = dom(renderMarkdown('```ts\nconst a = 1\n```\n\n```nolang\n<b>x</b>\n```'))
    const [ts, plain] = [...root.querySelectorAll('pre code')]
    expect(ts.querySelector('.hljs-keyword')?.textContent).toBe('const')
    expect(plain.querySelector('b')).toBeNull()
    expect(plain.textContent).toBe('<b>x</b>')
  })

  it('renders GFM tables and strikethrough', () => {
    const root = dom(renderMarkdown('| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~'))
    expect(root.querySelectorAll('td')).toHaveLength(2)
    expect(root.querySelector('del')?.textContent).toBe('old')
  })
})

describe('sanitizeHtml', () => {
  it('drops iframes and svg', () => {
    expect(sanitizeHtml('<iframe src="https://x"></iframe><svg><script>1</script></svg>ok')).toBe('ok')
  })
})
