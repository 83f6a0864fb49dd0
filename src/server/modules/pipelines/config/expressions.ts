/**
 * GitLab CI/CD variable expressions, as `rules:if`, `only:variables` and `workflow:rules` use
 * them: `$VAR`, `"string"`, `null`, `/regex/flags`, `==`, `!=`, `=~`, `!~`, `&&`, `||` and
 * parentheses. An undefined variable is null; a bare variable is true when set and not empty.
 */

type Token =
  | { readonly kind: 'var'; readonly name: string }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'null' }
  | { readonly kind: 'regex'; readonly source: string; readonly flags: string }
  | { readonly kind: 'op'; readonly op: '==' | '!=' | '=~' | '!~' | '&&' | '||' }
  | { readonly kind: 'paren'; readonly open: boolean }

type Node =
  | { readonly kind: 'value'; readonly token: Token }
  | { readonly kind: 'compare'; readonly op: '==' | '!=' | '=~' | '!~'; readonly left: Token; readonly right: Token }
  | { readonly kind: 'logic'; readonly op: '&&' | '||'; readonly left: Node; readonly right: Node }

/** Thrown for text that is not a valid expression; GitLab reports it as `invalid expression syntax`. */
export class ExpressionError extends Error {}

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (/\s/.test(c)) {
      i += 1
      continue
    }
    const rest = text.slice(i)
    let m: RegExpExecArray | null
    if ((m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}|^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(rest))) {
      tokens.push({ kind: 'var', name: m[1] ?? m[2] })
    } else if ((m = /^"((?:[^"\\]|\\.)*)"|^'((?:[^'\\]|\\.)*)'/.exec(rest))) {
      tokens.push({ kind: 'string', value: (m[1] ?? m[2]).replace(/\\(.)/g, '$1') })
    } else if ((m = /^null\b/.exec(rest))) {
      tokens.push({ kind: 'null' })
    } else if (
      (m = /^\/((?:[^/\\]|\\.)*)\/([a-z]*)/.exec(rest)) &&
      (tokens.length === 0 || tokens[tokens.length - 1].kind === 'op')
    ) {
      tokens.push({ kind: 'regex', source: m[1], flags: m[2] })
    } else if ((m = /^(==|!=|=~|!~|&&|\|\|)/.exec(rest))) {
      tokens.push({ kind: 'op', op: m[1] as '==' })
    } else if (c === '(' || c === ')') {
      m = /^./.exec(rest) as RegExpExecArray
      tokens.push({ kind: 'paren', open: c === '(' })
    } else {
      throw new ExpressionError('invalid expression syntax')
    }
    i += m[0].length
  }
  return tokens
}

class Parser {
  private at = 0
  constructor(private readonly tokens: readonly Token[]) {}

  parse(): Node {
    if (this.tokens.length === 0) throw new ExpressionError('invalid expression syntax')
    const node = this.or()
    if (this.at !== this.tokens.length) throw new ExpressionError('invalid expression syntax')
    return node
  }

  private peek(): Token | undefined {
    return this.tokens[this.at]
  }

  private or(): Node {
    let left = this.and()
    for (let t = this.peek(); t?.kind === 'op' && t.op === '||'; t = this.peek()) {
      this.at += 1
      left = { kind: 'logic', op: '||', left, right: this.and() }
    }
    return left
  }

  private and(): Node {
    let left = this.primary()
    for (let t = this.peek(); t?.kind === 'op' && t.op === '&&'; t = this.peek()) {
      this.at += 1
      left = { kind: 'logic', op: '&&', left, right: this.primary() }
    }
    return left
  }

  private primary(): Node {
    const t = this.peek()
    if (!t) throw new ExpressionError('invalid expression syntax')
    if (t.kind === 'paren' && t.open) {
      this.at += 1
      const inner = this.or()
      const close = this.peek()
      if (!close || close.kind !== 'paren' || close.open) throw new ExpressionError('invalid expression syntax')
      this.at += 1
      return inner
    }
    if (t.kind === 'op' || t.kind === 'paren') throw new ExpressionError('invalid expression syntax')
    this.at += 1
    const op = this.peek()
    if (op?.kind === 'op' && (op.op === '==' || op.op === '!=' || op.op === '=~' || op.op === '!~')) {
      this.at += 1
      const right = this.peek()
      if (!right || right.kind === 'op' || right.kind === 'paren')
        throw new ExpressionError('invalid expression syntax')
      this.at += 1
      return { kind: 'compare', op: op.op, left: t, right }
    }
    return { kind: 'value', token: t }
  }
}

/** Parses an expression, throwing ExpressionError when it is not valid. */
export function parseExpression(text: string): Node {
  return new Parser(tokenize(text)).parse()
}

/** True when the text is a valid expression. */
export function isValidExpression(text: string): boolean {
  try {
    parseExpression(text)
    return true
  } catch {
    return false
  }
}

function valueOf(t: Token, vars: Readonly<Record<string, string>>): string | null {
  if (t.kind === 'var') return Object.prototype.hasOwnProperty.call(vars, t.name) ? vars[t.name] : null
  if (t.kind === 'string') return t.value
  return null
}

function regexOf(t: Token, vars: Readonly<Record<string, string>>): RegExp | null {
  let source: string
  let flags: string
  if (t.kind === 'regex') {
    source = t.source
    flags = t.flags
  } else {
    // A variable may hold a pattern written `/…/flags`.
    const text = valueOf(t, vars)
    const m = text === null ? null : /^\/(.*)\/([a-z]*)$/s.exec(text)
    if (!m) return null
    source = m[1]
    flags = m[2]
  }
  try {
    return new RegExp(source, flags.replace(/[^im]/g, ''))
  } catch {
    return null
  }
}

function evaluate(node: Node, vars: Readonly<Record<string, string>>): boolean {
  if (node.kind === 'logic')
    return node.op === '&&'
      ? evaluate(node.left, vars) && evaluate(node.right, vars)
      : evaluate(node.left, vars) || evaluate(node.right, vars)
  if (node.kind === 'value') {
    const v = valueOf(node.token, vars)
    return v !== null && v !== ''
  }
  const left = valueOf(node.left, vars)
  if (node.op === '==' || node.op === '!=') {
    const same = node.right.kind === 'regex' ? false : left === valueOf(node.right, vars)
    return node.op === '==' ? same : !same
  }
  const re = regexOf(node.right, vars)
  const matched = left !== null && re !== null && re.test(left)
  return node.op === '=~' ? matched : !matched
}

/** Evaluates an expression against the variables; invalid syntax counts as false. */
export function evaluateExpression(text: string, vars: Readonly<Record<string, string>>): boolean {
  try {
    return evaluate(parseExpression(text), vars)
  } catch {
    return false
  }
}
