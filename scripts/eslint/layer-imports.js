import { dirname, relative, resolve, sep } from 'node:path'

/**
 * `burrow/layer-imports`: a relative import must not resolve into a folder of src/ that the
 * importing layer may not see (STYLE.md §1). Bare specifiers (node:*, electron, vue…) are
 * checked by `no-restricted-imports`; this rule covers what that one cannot: where a
 * `../../x` path actually lands.
 *
 * Options: `{ allow: ['src/shared', …] }` — folders of src/ the file may import from.
 * Paths resolving outside src/ (package.json, resources/) are not this rule's concern.
 */
export const layerImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Restrict which src/ folders a layer may import from' },
    schema: [
      {
        type: 'object',
        properties: { allow: { type: 'array', items: { type: 'string' } } },
        required: ['allow'],
        additionalProperties: false,
      },
    ],
    messages: {
      forbidden:
        "'{{source}}' resolves to {{target}}, outside what this layer may import ({{allowed}}). See STYLE.md, 'What that means here' §1.",
    },
  },
  create(context) {
    const allow = context.options[0].allow.map((p) => p.replace(/\/+$/, ''))
    const cwd = context.cwd
    const fromDir = dirname(resolve(cwd, context.filename))

    function check(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.')) return
      const target = relative(cwd, resolve(fromDir, source)).split(sep).join('/')
      if (target !== 'src' && !target.startsWith('src/')) return
      const allowed = allow.some((prefix) => target === prefix || target.startsWith(prefix + '/'))
      if (!allowed)
        context.report({ node, messageId: 'forbidden', data: { source, target, allowed: allow.join(', ') } })
    }

    const fromSource = (node) => {
      if (node.source && node.source.type === 'Literal') check(node.source, node.source.value)
    }
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node.source, node.source.value)
      },
      TSImportType(node) {
        const arg = node.argument
        const literal = arg && arg.type === 'TSLiteralType' ? arg.literal : arg
        if (literal && literal.type === 'Literal') check(literal, literal.value)
      },
      CallExpression(node) {
        if (
          node.callee.type === 'Identifier' &&
          node.callee.name === 'require' &&
          node.arguments[0]?.type === 'Literal'
        ) {
          check(node.arguments[0], node.arguments[0].value)
        }
      },
    }
  },
}

export default { meta: { name: 'burrow' }, rules: { 'layer-imports': layerImports } }
