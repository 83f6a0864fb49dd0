/**
 * @username mentions in Markdown. Code blocks, inline code spans and e-mail-like text do not
 * mention anyone, as in GitLab. Usernames are returned lowercased, without duplicates.
 */
export interface Mentions {
  /** Everyone mentioned anywhere in the text. */
  readonly all: readonly string[]
  /** Those mentioned before any other word: GitLab's "directly addressed". */
  readonly direct: readonly string[]
}

const MENTION = /(^|[^\w@/.`])@([A-Za-z0-9_][A-Za-z0-9_.-]*)/g
const LEADING_MENTIONS = /^\s*((?:@[A-Za-z0-9_][A-Za-z0-9_.-]*[\s,]*)+)/

function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?(^\1[^\n]*$|(?![\s\S]))/gm, '').replace(/(`+)[\s\S]*?\1/g, '')
}

function cleanUsername(raw: string): string {
  // A sentence may end right after a mention ("thanks @bob."): trailing dots and dashes are not part of it.
  return raw.replace(/[.-]+$/, '').toLowerCase()
}

/** The usernames mentioned in a note or description. */
export function parseMentions(text: string): Mentions {
  const prose = withoutCode(text)
  const all = new Set<string>()
  for (const m of prose.matchAll(MENTION)) {
    const name = cleanUsername(m[2])
    if (name) all.add(name)
  }
  const direct = new Set<string>()
  const lead = LEADING_MENTIONS.exec(prose)
  if (lead) {
    for (const m of lead[1].matchAll(/@([A-Za-z0-9_][A-Za-z0-9_.-]*)/g)) direct.add(cleanUsername(m[1]))
  }
  return { all: [...all], direct: [...direct].filter((u) => all.has(u)) }
}
