/**
 * Source files of the demo repositories: believable modules, tests, manifests and docs per
 * language, and the edits commits make to them (a new function and its test, a version bump).
 */
import type { Random } from './random'
import type { DeploySpec, PackagePin } from './world'

export type Language = 'typescript' | 'python' | 'go' | 'markdown'

/** A function a commit adds to a module. */
export interface FunctionSpec {
  readonly verb: string
  readonly entity: string
  /** One sentence saying what it does. */
  readonly summary: string
}

const VERBS = [
  'validate',
  'normalize',
  'find',
  'list',
  'count',
  'archive',
  'merge',
  'format',
  'parse',
  'group',
  'retry',
  'export',
  'dedupe',
  'sort',
] as const

const SUMMARIES: Readonly<Record<string, string>> = {
  validate: 'Checks {e} records before they are stored, reporting every problem at once',
  normalize: 'Brings {e} records into canonical form (trimmed text, lowercase region)',
  find: 'Finds the {e} with the given id',
  list: 'Lists {e} records page by page, newest first',
  count: 'Counts {e} records per status',
  archive: 'Leaves archived {e} records out of lists',
  merge: 'Merges a stored {e} with its latest changes',
  format: 'Loads a {e} for logs and error messages',
  parse: 'Parses a {e} from its wire format',
  group: 'Groups {e} records by status',
  retry: 'Retries loading a {e} that failed to load',
  export: 'Exports the newest {e} records',
  dedupe: 'Drops deleted {e} records from pages',
  sort: 'Sorts {e} records newest first',
}

/** What each verb's function does, which picks its body template. */
type FunctionKind = 'list' | 'count' | 'find' | 'validate'

const KIND_OF: Readonly<Record<string, FunctionKind>> = {
  list: 'list',
  sort: 'list',
  dedupe: 'list',
  archive: 'list',
  export: 'list',
  count: 'count',
  group: 'count',
  find: 'find',
  normalize: 'find',
  parse: 'find',
  format: 'find',
  retry: 'find',
  merge: 'find',
  validate: 'validate',
}

/** Template index of each kind per language (the templates below are in this order). */
const TEMPLATE_INDEX: Readonly<Record<Language, Readonly<Record<FunctionKind, number>>>> = {
  typescript: { list: 0, count: 1, find: 2, validate: 3 },
  python: { list: 0, count: 1, validate: 2, find: 3 },
  go: { list: 0, count: 1, validate: 2, find: 3 },
  markdown: { list: 0, count: 0, find: 0, validate: 0 },
}

/** A new function about the module's entity. */
export function newFunction(rng: Random, entity: string): FunctionSpec {
  const verb = rng.pick(VERBS)
  return { verb, entity, summary: (SUMMARIES[verb] ?? 'Handles {e} records').replace('{e}', words(entity)) }
}

function variantOf(language: Language, fn: FunctionSpec): number {
  return TEMPLATE_INDEX[language][KIND_OF[fn.verb] ?? 'list']
}

/** A summary sentence as an imperative title: "Sorts jobs" → "Sort jobs". */
export function imperative(summary: string): string {
  return summary.replace(/^(\w+?)(ies|s)\b/, (_m, stem: string, end: string) => (end === 'ies' ? `${stem}y` : stem))
}

function words(identifier: string): string {
  return identifier
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
}

function pascal(identifier: string): string {
  return identifier
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join('')
}

function camel(identifier: string): string {
  const p = pascal(identifier)
  return p.charAt(0).toLowerCase() + p.slice(1)
}

function snake(identifier: string): string {
  return identifier
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .replace(/[\s-]+/g, '_')
    .toLowerCase()
}

/** The function's name as the language spells it. */
export function functionName(language: Language, fn: FunctionSpec): string {
  const plural = ['list', 'count', 'archive', 'group', 'export', 'dedupe', 'sort'].includes(fn.verb)
  const base = `${fn.verb} ${fn.entity}${plural ? 's' : ''}`
  if (language === 'python') return snake(base.replace(' ', '_'))
  if (language === 'go') return pascal(base)
  return camel(base)
}

/** Where a module's source lives. */
export function modulePath(language: Language, pkg: string, module: string): string {
  switch (language) {
    case 'typescript':
      return `src/${module}.ts`
    case 'python':
      return `src/${pkg}/${snake(module)}.py`
    case 'go':
      return `${snake(module)}.go`
    case 'markdown':
      return `content/${module}.md`
  }
}

/** Where a module's tests live (null: markdown has none). */
export function testPath(language: Language, module: string): string | null {
  switch (language) {
    case 'typescript':
      return `test/${module}.test.ts`
    case 'python':
      return `tests/test_${snake(module)}.py`
    case 'go':
      return `${snake(module)}_test.go`
    case 'markdown':
      return null
  }
}

/** A module's first content. */
export function newModule(language: Language, pkg: string, module: string, entity: string): string {
  const E = pascal(entity)
  switch (language) {
    case 'typescript':
      return `import { NotFoundError, type Entity as ${E} } from './types'\n\n// ${pascal(module)}: ${words(entity)} handling for the API.\n\nexport const PAGE_SIZE = 50\n\nexport function is${E}(value: unknown): value is ${E} {\n  return typeof value === 'object' && value !== null && 'id' in value\n}\n`
    case 'python':
      return `"""${pascal(module)}: ${words(entity)} handling."""\n\nfrom __future__ import annotations\n\nfrom dataclasses import dataclass\nfrom datetime import datetime\n\nPAGE_SIZE = 50\n\n\n@dataclass(frozen=True)\nclass ${E}:\n    id: int\n    status: str\n    region: str\n    created_at: datetime\n    updated_at: datetime\n`
    case 'go':
      return `package ${pkg}\n\nimport (\n\t"errors"\n\t"sort"\n\t"time"\n)\n\n// ${E} is one ${words(entity)} tracked by the limiter.\ntype ${E} struct {\n\tID        string\n\tStatus    string\n\tRegion    string\n\tPriority  int\n\tCreatedAt time.Time\n\tUpdatedAt time.Time\n}\n\nvar errEmpty${E} = errors.New("${pkg}: empty ${words(entity)}")\n\nvar _ = sort.Slice\n`
    case 'markdown':
      return `---\ntitle: ${pascal(module).replace(/([a-z])([A-Z])/g, '$1 $2')}\nlayout: page\n---\n\n# ${pascal(module).replace(/([a-z])([A-Z])/g, '$1 $2')}\n\nKestrel Dispatch helps field-service teams plan, track and invoice their work.\n`
  }
}

/** The source of one function. */
export function functionSource(language: Language, fn: FunctionSpec): string {
  const name = functionName(language, fn)
  const E = pascal(fn.entity)
  const e = camel(fn.entity)
  switch (language) {
    case 'typescript':
      return [
        `\n/** ${fn.summary}. */\nexport function ${name}(items: readonly ${E}[], limit = PAGE_SIZE): ${E}[] {\n  return items\n    .filter((${e}) => ${e}.status !== 'deleted')\n    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))\n    .slice(0, limit)\n}\n`,
        `\n/** ${fn.summary}. */\nexport function ${name}(items: readonly ${E}[]): Map<string, number> {\n  const counts = new Map<string, number>()\n  for (const ${e} of items) counts.set(${e}.status, (counts.get(${e}.status) ?? 0) + 1)\n  return counts\n}\n`,
        `\n/** ${fn.summary}. */\nexport async function ${name}(id: string, load: (id: string) => Promise<${E} | undefined>): Promise<${E}> {\n  const ${e} = await load(id)\n  if (!${e}) throw new NotFoundError(\`${words(fn.entity)} \${id} not found\`)\n  return { ...${e}, region: ${e}.region.trim().toLowerCase() }\n}\n`,
        `\n/** ${fn.summary}. */\nexport function ${name}(${e}: ${E}): string[] {\n  const problems: string[] = []\n  if (!${e}.id) problems.push('id is missing')\n  if (!${e}.region) problems.push('region is missing')\n  if (Date.parse(${e}.updatedAt) < Date.parse(${e}.createdAt)) problems.push('updatedAt is before createdAt')\n  return problems\n}\n`,
      ][variantOf(language, fn)]
    case 'python':
      return [
        `\n\ndef ${name}(items: list[${E}], limit: int = PAGE_SIZE) -> list[${E}]:\n    """${fn.summary}."""\n    alive = [item for item in items if item.status != "deleted"]\n    return sorted(alive, key=lambda item: item.updated_at, reverse=True)[:limit]\n`,
        `\n\ndef ${name}(items: list[${E}]) -> dict[str, int]:\n    """${fn.summary}."""\n    counts: dict[str, int] = {}\n    for item in items:\n        counts[item.status] = counts.get(item.status, 0) + 1\n    return counts\n`,
        `\n\ndef ${name}(${snake(fn.entity)}: ${E}) -> list[str]:\n    """${fn.summary}."""\n    problems = []\n    if not ${snake(fn.entity)}.region:\n        problems.append("region is missing")\n    if ${snake(fn.entity)}.updated_at < ${snake(fn.entity)}.created_at:\n        problems.append("updated_at is before created_at")\n    return problems\n`,
        `\n\ndef ${name}(items: list[${E}], since: datetime) -> list[${E}]:\n    """${fn.summary}."""\n    return [item for item in items if item.created_at >= since]\n`,
      ][variantOf(language, fn)]
    case 'go':
      return [
        `\n// ${name} ${lowerFirst(fn.summary)}.\nfunc ${name}(items []${E}, limit int) []${E} {\n\tout := make([]${E}, 0, len(items))\n\tfor _, it := range items {\n\t\tif it.Status != "deleted" {\n\t\t\tout = append(out, it)\n\t\t}\n\t}\n\tsort.Slice(out, func(i, j int) bool { return out[i].UpdatedAt.After(out[j].UpdatedAt) })\n\tif len(out) > limit {\n\t\tout = out[:limit]\n\t}\n\treturn out\n}\n`,
        `\n// ${name} ${lowerFirst(fn.summary)}.\nfunc ${name}(items []${E}) map[string]int {\n\tcounts := make(map[string]int)\n\tfor _, it := range items {\n\t\tcounts[it.Status]++\n\t}\n\treturn counts\n}\n`,
        `\n// ${name} ${lowerFirst(fn.summary)}.\nfunc ${name}(it ${E}) error {\n\tif it.ID == "" {\n\t\treturn errEmpty${E}\n\t}\n\tif it.UpdatedAt.Before(it.CreatedAt) {\n\t\treturn errors.New("${words(fn.entity)}: updated before created")\n\t}\n\treturn nil\n}\n`,
        `\n// ${name} ${lowerFirst(fn.summary)}.\nfunc ${name}(items []${E}, since time.Time) []${E} {\n\tvar out []${E}\n\tfor _, it := range items {\n\t\tif !it.CreatedAt.Before(since) {\n\t\t\tout = append(out, it)\n\t\t}\n\t}\n\treturn out\n}\n`,
      ][variantOf(language, fn)]
    case 'markdown':
      return `\n## ${capitalise(words(fn.verb))} ${words(fn.entity)}s\n\n${fn.summary}. Dispatch keeps every change in the audit log, so your team can see who did what and when.\n`
  }
}

/** A test of one function (null where the language has no tests). */
export function testSource(language: Language, module: string, fn: FunctionSpec): string | null {
  const name = functionName(language, fn)
  const E = pascal(fn.entity)
  switch (language) {
    case 'typescript': {
      const call = `${camel(module)}.${name}`
      const body = [
        `  expect(${call}([])).toEqual([])`,
        `  expect(${call}([]).size).toBe(0)`,
        `  await expect(${call}('missing', async () => undefined)).rejects.toThrow('not found')`,
        `  expect(${call}({ id: '', status: 'open', region: '', createdAt: '2024-01-02', updatedAt: '2024-01-01' })).toHaveLength(3)`,
      ][variantOf(language, fn)]
      return `\ntest('${name}: ${['empty input', 'no statuses', 'unknown id', 'every problem'][variantOf(language, fn)]}', ${variantOf(language, fn) === 2 ? 'async ' : ''}() => {\n${body}\n})\n`
    }
    case 'python': {
      const call = `${snake(module)}.${name}`
      const body = [
        `    assert ${call}([]) == []`,
        `    assert ${call}([]) == {}`,
        `    assert ${call}(make_${snake(fn.entity)}(region="")) == ["region is missing"]`,
        `    assert ${call}([], datetime.now()) == []`,
      ][variantOf(language, fn)]
      return `\n\ndef test_${name}():\n${body}\n`
    }
    case 'go': {
      const body = [
        `\tif got := ${name}(nil, 10); len(got) != 0 {\n\t\tt.Fatalf("want empty, got %v", got)\n\t}`,
        `\tif got := ${name}(nil); len(got) != 0 {\n\t\tt.Fatalf("want no counts, got %v", got)\n\t}`,
        `\tif err := ${name}(${E}{}); err == nil {\n\t\tt.Fatal("want an error for an empty ${words(fn.entity)}")\n\t}`,
        `\tif got := ${name}(nil, time.Now()); got != nil {\n\t\tt.Fatalf("want nil, got %v", got)\n\t}`,
      ][variantOf(language, fn)]
      return `\nfunc Test${name}(t *testing.T) {\n${body}\n}\n`
    }
    case 'markdown':
      return null
  }
}

/** A test file's first content. */
export function newTestFile(language: Language, pkg: string, module: string): string {
  switch (language) {
    case 'typescript':
      return `import { expect, test } from 'vitest'\nimport * as ${camel(module)} from '../src/${module}'\n`
    case 'python':
      return `from datetime import datetime\n\nfrom ${pkg} import ${snake(module)}\nfrom tests.factories import *  # noqa: F403\n`
    case 'go':
      return `package ${pkg}\n\nimport (\n\t"testing"\n\t"time"\n)\n\nvar _ = time.Now\n`
    case 'markdown':
      return ''
  }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1)
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export interface ScaffoldOptions {
  readonly name: string
  readonly path: string
  readonly pkg: string
  readonly description: string
  readonly version: string
  readonly deploy?: DeploySpec
  readonly dependencies?: readonly PackagePin[]
}

/** The repository's first files besides modules: README, manifest and lock file, ignore file, CI, changelog. */
export function scaffold(language: Language, o: ScaffoldOptions): Map<string, string> {
  const files = new Map<string, string>()
  const commands: Record<Language, string> = {
    typescript: 'npm ci\nnpm run dev',
    python: 'python -m venv .venv\n. .venv/bin/activate\npip install -e ".[dev]"\npytest',
    go: `go get example.com/kestrel/${o.path}\ngo test ./...`,
    markdown: 'npm ci\nnpm run serve',
  }
  files.set(
    'README.md',
    `# ${o.name}\n\n${o.description}\n\n## Getting started\n\n\`\`\`shell\n${commands[language]}\n\`\`\`\n\n## Configuration\n\n| Variable | Default | Meaning |\n|---|---|---|\n| \`LOG_LEVEL\` | \`info\` | One of debug, info, warn, error |\n| \`PORT\` | \`8080\` | Where the service listens |\n\n## Contributing\n\nOpen a merge request against \`main\`. Every change needs a review from a maintainer.\n`,
  )
  files.set('CHANGELOG.md', `# Changelog\n\nAll notable changes to this project are documented here.\n`)
  files.set('.gitlab-ci.yml', ciConfig(language, o.deploy))
  const pins = o.dependencies ?? []
  switch (language) {
    case 'typescript':
      files.set('package.json', packageJson(o.path, o.version, pins))
      if (pins.length > 0) files.set('package-lock.json', packageLock(o.path, o.version, pins))
      files.set('.gitignore', 'node_modules/\ndist/\ncoverage/\n.env\n')
      files.set(
        'tsconfig.json',
        '{\n  "compilerOptions": {\n    "target": "ES2022",\n    "module": "NodeNext",\n    "strict": true,\n    "outDir": "dist"\n  },\n  "include": ["src"]\n}\n',
      )
      files.set('src/types.ts', typesFile())
      break
    case 'python':
      files.set('pyproject.toml', pyproject(o.pkg, o.version, o.description))
      if (pins.length > 0)
        files.set(
          'requirements.txt',
          pins
            .filter((p) => !p.dev)
            .map((p) => `${p.name}==${p.version}\n`)
            .join(''),
        )
      files.set('.gitignore', '__pycache__/\n*.pyc\n.venv/\n.pytest_cache/\ndist/\n')
      files.set(`src/${o.pkg}/__init__.py`, `"""${o.description}"""\n\n__version__ = "${o.version}"\n`)
      break
    case 'go':
      files.set('go.mod', `module example.com/kestrel/${o.path}\n\ngo 1.21\n`)
      files.set('.gitignore', '/bin/\n*.test\ncoverage.out\n')
      files.set('doc.go', `// Package ${o.pkg} ${lowerFirst(o.description.replace(/\.$/, ''))}.\npackage ${o.pkg}\n`)
      files.set(
        'LICENSE',
        'MIT License\n\nCopyright (c) Kestrel\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software.\n',
      )
      break
    case 'markdown':
      files.set('.gitignore', '_site/\nnode_modules/\n')
      break
  }
  return files
}

const CI_IMAGES: Record<Language, string> = {
  typescript: 'node:20',
  python: 'python:3.12',
  go: 'golang:1.22',
  markdown: 'node:20',
}

/** What each language's CI jobs run: build (deployed projects), lint and test. */
export const CI_COMMANDS: Record<
  Language,
  { readonly build: readonly string[]; readonly lint: readonly string[]; readonly test: readonly string[] }
> = {
  typescript: {
    build: ['npm ci', 'npm run build'],
    lint: ['npm ci', 'npm run lint'],
    test: ['npm ci', 'npm test -- --coverage'],
  },
  python: {
    build: ['pip install build', 'python -m build'],
    lint: ['pip install ruff', 'ruff check .'],
    test: ['pip install -e ".[dev]"', 'pytest --cov'],
  },
  go: { build: ['go build ./...'], lint: ['go vet ./...'], test: ['go test -race -cover ./...'] },
  markdown: { build: ['npm ci', 'npm run build'], lint: ['npm ci', 'npm run lint'], test: ['npm ci', 'npm run build'] },
}

function scriptLines(lines: readonly string[]): string {
  return lines.map((l) => `    - ${l.includes(':') || l.startsWith('"') ? `'${l}'` : l}\n`).join('')
}

/**
 * The project's `.gitlab-ci.yml`: a test job, and for deployed projects a build, lint, test and
 * deploy pipeline with review apps per branch (stopped by a manual job), staging from the default
 * branch and a manual production deployment from tags.
 */
function ciConfig(language: Language, deploy?: DeploySpec): string {
  const c = CI_COMMANDS[language]
  if (!deploy)
    return `image: ${CI_IMAGES[language]}\n\nstages:\n  - test\n\ntest:\n  stage: test\n  script:\n${scriptLines(c.test)}`
  return [
    `image: ${CI_IMAGES[language]}`,
    '',
    'stages:',
    '  - build',
    '  - test',
    '  - deploy',
    '',
    'build:',
    '  stage: build',
    '  script:',
    scriptLines(c.build).trimEnd(),
    '',
    'lint:',
    '  stage: test',
    '  script:',
    scriptLines(c.lint).trimEnd(),
    '',
    'test:',
    '  stage: test',
    '  script:',
    scriptLines(c.test).trimEnd(),
    "  coverage: '/Lines\\s*:\\s*\\d+(?:\\.\\d+)?%/'",
    '',
    'review:',
    '  stage: deploy',
    '  script:',
    '    - ./scripts/deploy.sh review',
    '  environment:',
    '    name: review/$CI_COMMIT_REF_SLUG',
    `    url: https://$CI_COMMIT_REF_SLUG.${deploy.reviewDomain}`,
    '    on_stop: stop_review',
    '    auto_stop_in: 1 week',
    '  rules:',
    '    - if: $CI_COMMIT_BRANCH && $CI_COMMIT_BRANCH != $CI_DEFAULT_BRANCH',
    '',
    'stop_review:',
    '  stage: deploy',
    '  script:',
    '    - ./scripts/deploy.sh stop',
    '  environment:',
    '    name: review/$CI_COMMIT_REF_SLUG',
    '    action: stop',
    '  rules:',
    '    - if: $CI_COMMIT_BRANCH && $CI_COMMIT_BRANCH != $CI_DEFAULT_BRANCH',
    '      when: manual',
    '  allow_failure: true',
    '',
    'staging:',
    '  stage: deploy',
    '  script:',
    '    - ./scripts/deploy.sh staging',
    '  environment:',
    '    name: staging',
    `    url: ${deploy.stagingUrl}`,
    '  rules:',
    '    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
    '',
    'production:',
    '  stage: deploy',
    '  script:',
    '    - ./scripts/deploy.sh production',
    '  environment:',
    '    name: production',
    `    url: ${deploy.productionUrl}`,
    '  rules:',
    '    - if: $CI_COMMIT_TAG',
    '      when: manual',
    '',
  ].join('\n')
}

function packageJson(name: string, version: string, pins: readonly PackagePin[]): string {
  const ranges = (dev: boolean): string =>
    pins
      .filter((p) => p.direct !== false && (p.dev === true) === dev)
      .map((p) => `    "${p.name}": "^${p.version}"`)
      .join(',\n')
  const sections = [
    `  "name": "${name}"`,
    `  "version": "${version}"`,
    '  "private": true',
    '  "type": "module"',
    '  "scripts": {\n    "dev": "tsx watch src/server.ts",\n    "build": "tsc -p .",\n    "lint": "eslint .",\n    "test": "vitest run"\n  }',
  ]
  if (ranges(false) !== '') sections.push(`  "dependencies": {\n${ranges(false)}\n  }`)
  if (ranges(true) !== '') sections.push(`  "devDependencies": {\n${ranges(true)}\n  }`)
  return `{\n${sections.join(',\n')}\n}\n`
}

/** An npm lock file (lockfileVersion 3) recording every pinned package under node_modules/. */
function packageLock(name: string, version: string, pins: readonly PackagePin[]): string {
  const direct = (dev: boolean): Record<string, string> =>
    Object.fromEntries(
      pins.filter((p) => p.direct !== false && (p.dev === true) === dev).map((p) => [p.name, `^${p.version}`]),
    )
  const packages: Record<string, unknown> = {
    '': { name, version, dependencies: direct(false), devDependencies: direct(true) },
  }
  for (const p of [...pins].sort((a, b) => a.name.localeCompare(b.name))) {
    const file = p.name.includes('/') ? p.name.split('/')[1] : p.name
    packages[`node_modules/${p.name}`] = {
      version: p.version,
      resolved: `https://registry.npmjs.org/${p.name}/-/${file}-${p.version}.tgz`,
      ...(p.dev ? { dev: true } : {}),
      license: 'MIT',
    }
  }
  return `${JSON.stringify({ name, version, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`
}

function pyproject(pkg: string, version: string, description: string): string {
  return `[project]\nname = "${pkg}"\nversion = "${version}"\ndescription = "${description}"\nrequires-python = ">=3.11"\n\n[project.optional-dependencies]\ndev = ["pytest", "ruff"]\n`
}

function typesFile(): string {
  return `export interface Entity {\n  readonly id: string\n  readonly status: string\n  readonly region: string\n  readonly createdAt: string\n  readonly updatedAt: string\n}\n\nexport class NotFoundError extends Error {}\n`
}

/** The manifest edit of a release (null when the language keeps no version in a file). */
export function versionBump(
  language: Language,
  files: ReadonlyMap<string, string>,
  pkg: string,
  version: string,
): [string, string] | null {
  if (language === 'typescript') {
    const text = files.get('package.json')
    return text ? ['package.json', text.replace(/"version": "[^"]*"/, `"version": "${version}"`)] : null
  }
  if (language === 'python') {
    const path = `src/${pkg}/__init__.py`
    const text = files.get(path)
    return text ? [path, text.replace(/__version__ = "[^"]*"/, `__version__ = "${version}"`)] : null
  }
  return null
}

/** The changelog with a new release section on top. */
export function changelogEntry(changelog: string, version: string, date: string, lines: readonly string[]): string {
  const header = '# Changelog\n\nAll notable changes to this project are documented here.\n'
  const rest = changelog.startsWith(header) ? changelog.slice(header.length) : changelog
  return `${header}\n## ${version} (${date})\n\n${lines.map((l) => `- ${l}`).join('\n')}\n${rest}`
}
