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

const SERVER = 'src/server'
const MODULES = `${SERVER}/modules/`
const PLATFORM = `${SERVER}/platform/`
/** Calls that run SQL: `db.prepare`/`db.exec` and the statement helpers of platform/db/statements.ts. */
const SQL_HELPERS = new Set(['cachedStatement', 'memoizedGet', 'memoizedAll', 'allRows'])

/** The src-relative path a file or import lands on, without its extension (`src/server/modules/x/y`). */
function srcPath(cwd, file) {
  return relative(cwd, file)
    .split(sep)
    .join('/')
    .replace(/\.(ts|js|vue)$/, '')
}

/** `issues` for `src/server/modules/issues/…`; null outside a module (modules/index.ts included). */
function moduleOf(path) {
  if (!path.startsWith(MODULES)) return null
  const rest = path.slice(MODULES.length)
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : null
}

/** Files that may see Fastify's request: route plugins, the HTTP helpers, the Caller, the app itself. */
function mayUseRequest(path) {
  const base = path.slice(path.lastIndexOf('/') + 1)
  return (
    base === 'routes' ||
    base.endsWith('-routes') ||
    path.startsWith(`${PLATFORM}http/`) ||
    path === `${PLATFORM}caller` ||
    path === `${SERVER}/app` ||
    path === `${SERVER}/fastify.d`
  )
}

/** Files that may run SQL: queries files, platform/db, and the permission queries of platform/auth. */
function mayRunSql(path) {
  const base = path.slice(path.lastIndexOf('/') + 1)
  return base.endsWith('queries') || path.startsWith(`${PLATFORM}db/`) || path === `${PLATFORM}auth/permissions`
}

/** `db`, `this.db`, `ctx.db`, `caller.db`: what a statement is prepared on. */
function isDatabase(node) {
  if (node.type === 'Identifier') return node.name === 'db'
  return node.type === 'MemberExpression' && !node.computed && node.property.name === 'db'
}

/**
 * `burrow/server-modules`: the layers inside src/server (issue 8, STYLE.md §3). `platform/`
 * imports no module; a module reaches another only through its index (`../issues`, never
 * `../issues/service`); only route plugins, `platform/http`, `platform/caller.ts` and the app see
 * `FastifyRequest`; SQL runs only in queries files, `platform/db` and the permission queries.
 */
export const serverModules = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Keep the layers of Burrow Server: platform below modules, modules meeting through their index',
    },
    schema: [],
    messages: {
      platformImportsModule: "platform/ imports nothing from modules/: '{{source}}' resolves to {{target}}.",
      moduleInternals:
        "A module imports another only through its index: '{{source}}' reaches into {{target}} (import from '{{index}}').",
      request: 'Only route plugins, platform/http and platform/caller.ts see FastifyRequest: take a Caller.',
      sql: 'SQL runs only in queries files and platform/db: move this statement into queries.ts.',
    },
  },
  create(context) {
    const cwd = context.cwd
    const file = resolve(cwd, context.filename)
    const path = srcPath(cwd, file)
    if (!path.startsWith(`${SERVER}/`)) return {}
    const fromDir = dirname(file)
    const fromModule = moduleOf(path)

    function checkImport(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.')) return
      const target = srcPath(cwd, resolve(fromDir, source)).replace(/\/index$/, '')
      const targetModule = moduleOf(`${target}/`)
      if (path.startsWith(PLATFORM) && target.startsWith(MODULES))
        context.report({ node, messageId: 'platformImportsModule', data: { source, target } })
      else if (fromModule !== null && targetModule !== null && targetModule !== fromModule) {
        if (target !== `${MODULES}${targetModule}`)
          context.report({ node, messageId: 'moduleInternals', data: { source, target, index: `../${targetModule}` } })
      }
    }

    const fromSource = (node) => {
      if (node.source && node.source.type === 'Literal') checkImport(node.source, node.source.value)
    }
    return {
      ImportDeclaration(node) {
        fromSource(node)
        if (node.source.value === 'fastify' && !mayUseRequest(path)) {
          for (const spec of node.specifiers)
            if (spec.type === 'ImportSpecifier' && spec.imported.name === 'FastifyRequest')
              context.report({ node: spec, messageId: 'request' })
        }
      },
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      CallExpression(node) {
        if (mayRunSql(path)) return
        const callee = node.callee
        const runsSql =
          (callee.type === 'Identifier' && SQL_HELPERS.has(callee.name)) ||
          (callee.type === 'MemberExpression' &&
            !callee.computed &&
            (callee.property.name === 'prepare' || callee.property.name === 'exec') &&
            isDatabase(callee.object))
        if (runsSql) context.report({ node, messageId: 'sql' })
      },
    }
  },
}

export default { meta: { name: 'burrow' }, rules: { 'layer-imports': layerImports, 'server-modules': serverModules } }
