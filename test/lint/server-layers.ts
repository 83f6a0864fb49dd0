import { readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { ESLint } from 'eslint'
import tseslint from 'typescript-eslint'
import burrow from '../../scripts/eslint/layer-imports.js'

/** An ESLint that runs only `burrow/server-modules`, on TypeScript files, from the repository root. */
export function serverModulesLinter(): ESLint {
  return new ESLint({
    cwd: process.cwd(),
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        linterOptions: { reportUnusedDisableDirectives: 'off' },
        // The TypeScript rules are known (files name them in disable comments) but not run.
        plugins: { burrow, '@typescript-eslint': tseslint.plugin },
        rules: { 'burrow/server-modules': 'error' },
      },
    ],
  })
}

/** Every TypeScript file below `dir`, relative to the repository root with `/` separators. */
export function typeScriptFiles(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...typeScriptFiles(path))
    else if (entry.name.endsWith('.ts')) out.push(relative(process.cwd(), path).split(sep).join('/'))
  }
  return out.sort()
}

/**
 * The rule's findings over src/server as stable lines: `file: kind` for a file that sees the request
 * or runs SQL (once per file), `file: kind -> target` for an import that crosses a layer.
 */
export async function serverViolations(linter: ESLint = serverModulesLinter()): Promise<string[]> {
  const results = await linter.lintFiles(typeScriptFiles('src/server'))
  const lines = new Set<string>()
  for (const result of results) {
    const file = relative(process.cwd(), result.filePath).split(sep).join('/')
    for (const m of result.messages) {
      if (m.ruleId !== 'burrow/server-modules') throw new Error(`${file}:${m.line}: ${m.message}`)
      const target = /(?:resolves to|reaches into) (\S+?)[ .(]/.exec(m.message)?.[1]
      const kind = m.message.startsWith('platform/')
        ? 'platform imports a module'
        : m.message.startsWith('A module')
          ? 'module internals'
          : m.message.startsWith('Only route')
            ? 'FastifyRequest'
            : 'SQL'
      lines.add(target ? `${file}: ${kind} -> ${target}` : `${file}: ${kind}`)
    }
  }
  return [...lines].sort()
}
