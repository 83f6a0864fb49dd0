import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

/** Every .ts and .vue file below `dir`, relative to the repository root with `/` separators. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...sourceFiles(path))
    else if (/\.(ts|vue)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
      out.push(relative(process.cwd(), path).split(sep).join('/'))
  }
  return out.sort()
}

/** The script of a file: a .vue file's `<script>` blocks, a .ts file whole. */
function scriptOf(file: string): string {
  const text = readFileSync(file, 'utf8')
  if (!file.endsWith('.vue')) return text
  return [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n')
}

/**
 * The specifiers a file loads when it runs, packages too: static imports and re-exports, but not
 * `import type`/`export type` (erased), nor an import whose every name is `type` (erased too…
 * except that verbatimModuleSyntax keeps `import {} from`, a side-effect import: counted), nor a
 * dynamic `import()`, which loads later and so cannot close a cycle at load time.
 */
export function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, scriptOf(file), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  const out: string[] = []
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined
    if (ts.isImportDeclaration(statement)) {
      if (statement.importClause?.isTypeOnly) continue
      specifier = statement.moduleSpecifier
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly || !statement.moduleSpecifier) continue
      specifier = statement.moduleSpecifier
    }
    if (specifier && ts.isStringLiteral(specifier)) out.push(specifier.text)
  }
  return out
}

/** The relative specifiers among a file's runtime imports (runtimeImports): the repository files it loads. */
export function runtimeSpecifiers(file: string): string[] {
  return runtimeImports(file).filter((specifier) => specifier.startsWith('.'))
}

const CANDIDATES = ['', '.ts', '.vue', '/index.ts']

/** The repository file a relative specifier lands on, or null (a JSON file, an asset). */
export function resolveSpecifier(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''))
  for (const suffix of CANDIDATES) {
    const candidate = base + suffix
    if (/\.(ts|vue)$/.test(candidate) && existsSync(candidate))
      return relative(process.cwd(), candidate).split(sep).join('/')
  }
  return null
}

/** The runtime import graph of `files`: each file to the files it loads. */
export function runtimeGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const targets = runtimeSpecifiers(file)
      .map((s) => resolveSpecifier(file, s))
      .filter((t): t is string => t !== null)
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/** The files `roots` load when they run, directly or through others, the roots included. */
export function reachable(graph: ReadonlyMap<string, readonly string[]>, roots: readonly string[]): Set<string> {
  const seen = new Set<string>()
  const pending = [...roots]
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue
    seen.add(file)
    pending.push(...(graph.get(file) ?? []))
  }
  return seen
}

/** The graph's cycles as strongly connected components of two files or more (Tarjan), each sorted. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const out: string[][] = []
  let next = 0
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next)
    next += 1
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop() as string
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1) out.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return out.sort((a, b) => a[0].localeCompare(b[0]))
}
