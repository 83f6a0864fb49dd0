import { posix } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import { parse as parseYaml } from 'yaml'
import { isRecord } from '../../../shared/json'

/**
 * Parsers of the dependency files GitLab's dependency scanning reads (lock files and manifests of
 * npm, yarn, bundler, composer, pip, maven and conan). Each turns a file's text into
 * `{name, version}` pairs; a malformed file yields none rather than an error, since one bad file
 * must not hide the others' dependencies. Pure; services/dependencies.ts finds the files.
 */

export const PACKAGE_MANAGERS = ['bundler', 'composer', 'conan', 'maven', 'npm', 'pip', 'yarn'] as const
export type PackageManager = (typeof PACKAGE_MANAGERS)[number]

/** Which files are dependency files, by base name, and the package manager each belongs to. */
export const DEPENDENCY_FILES: Readonly<Record<string, PackageManager>> = {
  'package-lock.json': 'npm',
  'npm-shrinkwrap.json': 'npm',
  'yarn.lock': 'yarn',
  'Gemfile.lock': 'bundler',
  'gems.locked': 'bundler',
  'composer.lock': 'composer',
  'requirements.txt': 'pip',
  'Pipfile.lock': 'pip',
  'pom.xml': 'maven',
  'conanfile.txt': 'conan',
  'conanfile.py': 'conan',
}

export interface ParsedDependency {
  readonly name: string
  readonly version: string
}

/** Reads another file of the repository (a parent pom.xml), or null when there is none. */
export type FileLookup = (path: string) => string | null

type Json = Record<string, unknown>

function str(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value.trim()
  if (typeof value === 'number') return String(value)
  return null
}

function dedupe(list: readonly ParsedDependency[]): ParsedDependency[] {
  const seen = new Map<string, ParsedDependency>()
  for (const d of list) seen.set(`${d.name}\0${d.version}`, d)
  return [...seen.values()]
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch {
    return null
  }
}

/**
 * npm's package-lock.json / npm-shrinkwrap.json: lockfile v2/v3 `packages` (keys are install
 * paths, `node_modules/a/node_modules/@scope/b`), else v1's nested `dependencies`. Workspace
 * links and the root package are not dependencies.
 */
export function parseNpmLock(text: string): ParsedDependency[] {
  const doc = parseJson(text)
  if (!isRecord(doc)) return []
  const out: ParsedDependency[] = []
  if (isRecord(doc.packages)) {
    for (const [key, entry] of Object.entries(doc.packages)) {
      if (!isRecord(entry) || entry.link === true) continue
      const at = key.lastIndexOf('node_modules/')
      if (at < 0) continue
      const version = str(entry.version)
      if (version) out.push({ name: key.slice(at + 'node_modules/'.length), version })
    }
    return dedupe(out)
  }
  const walk = (deps: unknown): void => {
    if (!isRecord(deps)) return
    for (const [name, entry] of Object.entries(deps)) {
      if (!isRecord(entry)) continue
      const version = str(entry.version)
      if (version) out.push({ name, version })
      walk(entry.dependencies)
    }
  }
  walk(doc.dependencies)
  return dedupe(out)
}

/** `@scope/name@^1.0.0` or `name@npm:^1` → the package name. */
function descriptorName(descriptor: string): string | null {
  const d = descriptor.trim().replace(/^"|"$/g, '')
  const at = d.indexOf('@', 1)
  const name = at > 0 ? d.slice(0, at) : d
  return name === '' ? null : name
}

/**
 * yarn.lock: the classic v1 format (`"a@^1", a@^1.1:` blocks with `version "1.2.3"`) and Yarn
 * Berry's YAML lockfile (`__metadata`, `resolution: "a@npm:1.2.3"`; workspaces left out).
 */
export function parseYarnLock(text: string): ParsedDependency[] {
  if (/^__metadata:/m.test(text)) {
    let doc: unknown
    try {
      doc = parseYaml(text)
    } catch {
      return []
    }
    if (!isRecord(doc)) return []
    const out: ParsedDependency[] = []
    for (const [key, entry] of Object.entries(doc)) {
      if (key === '__metadata' || !isRecord(entry)) continue
      const resolution = str(entry.resolution) ?? key.split(',')[0]
      if (/@(workspace|link|portal|patch):/.test(resolution)) continue
      const name = descriptorName(resolution)
      const version = str(entry.version)
      if (name && version && version !== '0.0.0-use.local') out.push({ name, version })
    }
    return dedupe(out)
  }
  const out: ParsedDependency[] = []
  let name: string | null = null
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('#') || line.trim() === '') continue
    if (!/^\s/.test(line)) {
      name = line.endsWith(':') ? descriptorName(line.slice(0, -1).split(',')[0]) : null
      continue
    }
    const m = /^\s+version:?\s+"?([^"\s]+)"?\s*$/.exec(line)
    if (m && name) {
      out.push({ name, version: m[1] })
      name = null
    }
  }
  return dedupe(out)
}

/**
 * Gemfile.lock: the `specs:` of its GEM, GIT and PATH sections (four-space `name (version)`
 * lines; deeper lines are the gems' own requirements). A platform suffix (`-x86_64-linux`) is not
 * part of the version.
 */
export function parseGemfileLock(text: string): ParsedDependency[] {
  const out: ParsedDependency[] = []
  let section = ''
  let inSpecs = false
  for (const line of text.split(/\r?\n/)) {
    if (/^\S/.test(line)) {
      section = line.trim()
      inSpecs = false
      continue
    }
    if (!['GEM', 'GIT', 'PATH'].includes(section)) continue
    if (/^ {2}specs:\s*$/.test(line)) {
      inSpecs = true
      continue
    }
    if (/^ {2}\S/.test(line)) {
      inSpecs = false
      continue
    }
    const m = inSpecs ? /^ {4}([^\s(]+) \(([^)]+)\)\s*$/.exec(line) : null
    if (m) out.push({ name: m[1], version: m[2].split('-')[0] })
  }
  return dedupe(out)
}

/** composer.lock: `packages` and `packages-dev`. */
export function parseComposerLock(text: string): ParsedDependency[] {
  const doc = parseJson(text)
  if (!isRecord(doc)) return []
  const out: ParsedDependency[] = []
  for (const key of ['packages', 'packages-dev']) {
    const list = doc[key]
    if (!Array.isArray(list)) continue
    for (const entry of list) {
      if (!isRecord(entry)) continue
      const name = str(entry.name)
      const version = str(entry.version)
      if (name && version) out.push({ name, version })
    }
  }
  return dedupe(out)
}

/**
 * requirements.txt: pinned requirements (`name==1.2`, `name[extra]===1.2`, with markers and
 * hashes). Options (`-r`, `-e`, `--index-url`), URLs and unpinned ranges are skipped: without
 * running pip the installed version of a range is unknown.
 */
export function parseRequirementsTxt(text: string): ParsedDependency[] {
  const out: ParsedDependency[] = []
  const logical = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/)
  for (const raw of logical) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim()
    if (line === '' || line.startsWith('-')) continue
    const m =
      /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*===?\s*([^\s,;]+)\s*(?:[;\s].*)?$/.exec(line)
    if (m) out.push({ name: m[1], version: m[2] })
  }
  return dedupe(out)
}

/** Pipfile.lock: `default` and `develop`, versions written `==1.2.3`. */
export function parsePipfileLock(text: string): ParsedDependency[] {
  const doc = parseJson(text)
  if (!isRecord(doc)) return []
  const out: ParsedDependency[] = []
  for (const key of ['default', 'develop']) {
    const deps = doc[key]
    if (!isRecord(deps)) continue
    for (const [name, entry] of Object.entries(deps)) {
      const version = isRecord(entry) ? str(entry.version) : null
      if (version) out.push({ name, version: version.replace(/^===?/, '') })
    }
  }
  return dedupe(out)
}

const xml = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'dependency',
})

interface Pom {
  readonly properties: ReadonlyMap<string, string>
  readonly managed: ReadonlyMap<string, string>
  readonly dependencies: readonly Json[]
  readonly parentPath: string | null
}

function readPom(text: string, path: string): Pom | null {
  let doc: unknown
  try {
    doc = xml.parse(text)
  } catch {
    return null
  }
  const project = isRecord(doc) ? doc.project : null
  if (!isRecord(project)) return null
  const properties = new Map<string, string>()
  if (isRecord(project.properties))
    for (const [k, v] of Object.entries(project.properties)) if (str(v)) properties.set(k, str(v) as string)
  const parent = isRecord(project.parent) ? project.parent : {}
  const version = str(project.version) ?? str(parent.version)
  const groupId = str(project.groupId) ?? str(parent.groupId)
  if (version) properties.set('project.version', version).set('pom.version', version).set('version', version)
  if (groupId) properties.set('project.groupId', groupId).set('pom.groupId', groupId)
  if (str(parent.version)) properties.set('project.parent.version', str(parent.version) as string)
  const managed = new Map<string, string>()
  const management =
    isRecord(project.dependencyManagement) && isRecord(project.dependencyManagement.dependencies)
      ? project.dependencyManagement.dependencies.dependency
      : []
  for (const d of Array.isArray(management) ? management : []) {
    if (isRecord(d) && str(d.groupId) && str(d.artifactId) && str(d.version))
      managed.set(`${str(d.groupId)}:${str(d.artifactId)}`, str(d.version) as string)
  }
  const deps = isRecord(project.dependencies) ? project.dependencies.dependency : []
  const relative = isRecord(project.parent)
    ? typeof parent.relativePath === 'string'
      ? parent.relativePath
      : '../pom.xml'
    : null
  let parentPath: string | null = null
  if (relative) {
    const joined = posix.normalize(posix.join(posix.dirname(path), relative))
    parentPath = joined.endsWith('.xml') ? joined : posix.join(joined, 'pom.xml')
    if (parentPath.startsWith('..')) parentPath = null
  }
  return { properties, managed, dependencies: (Array.isArray(deps) ? deps : []).filter(isRecord), parentPath }
}

/**
 * pom.xml: the `<dependencies>` of the project, named `groupId/artifactId`, versions resolved
 * through `${property}` references, the project's and its parents' `<properties>` and
 * `<dependencyManagement>` (parents found through `<relativePath>`, default `../pom.xml`, in the
 * same repository). Dependencies whose version stays unknown are skipped.
 */
export function parsePomXml(text: string, path = 'pom.xml', lookup: FileLookup = () => null): ParsedDependency[] {
  const own = readPom(text, path)
  if (!own) return []
  const chain: Pom[] = [own]
  const visited = new Set([path])
  for (let parent = own.parentPath; parent && !visited.has(parent) && chain.length < 10;) {
    visited.add(parent)
    const content = lookup(parent)
    const pom = content ? readPom(content, parent) : null
    if (!pom) break
    chain.push(pom)
    parent = pom.parentPath
  }
  const property = (name: string): string | undefined => {
    for (const pom of chain) {
      const v = pom.properties.get(name)
      if (v !== undefined) return v
    }
    return undefined
  }
  const resolve = (value: string | null): string | null => {
    let v = value
    for (let i = 0; v && v.includes('${') && i < 10; i += 1)
      v = v.replace(/\$\{([^}]+)\}/g, (whole, name: string) => property(name) ?? whole)
    return v && !v.includes('${') ? v : null
  }
  const out: ParsedDependency[] = []
  for (const d of own.dependencies) {
    const groupId = resolve(str(d.groupId))
    const artifactId = resolve(str(d.artifactId))
    if (!groupId || !artifactId) continue
    let version = resolve(str(d.version))
    for (const pom of chain) {
      if (version) break
      version = resolve(pom.managed.get(`${groupId}:${artifactId}`) ?? null)
    }
    if (version) out.push({ name: `${groupId}/${artifactId}`, version })
  }
  return dedupe(out)
}

/** A conan reference `name/version[@user/channel][#revision]` → name and version. */
function conanReference(ref: string): ParsedDependency | null {
  const m = /^([A-Za-z0-9_][A-Za-z0-9_+.-]*)\/([^@#\s]+)(?:@\S*)?$/.exec(ref.trim())
  return m ? { name: m[1], version: m[2].replace(/#.*$/, '') } : null
}

/** conanfile.txt: the references under `[requires]`, `[build_requires]`, `[tool_requires]`, `[test_requires]`. */
export function parseConanfileTxt(text: string): ParsedDependency[] {
  const out: ParsedDependency[] = []
  let inRequires = false
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim()
    if (line === '') continue
    const section = /^\[([^\]]+)\]$/.exec(line)
    if (section) {
      inRequires = ['requires', 'build_requires', 'tool_requires', 'test_requires'].includes(section[1].trim())
      continue
    }
    const ref = inRequires ? conanReference(line) : null
    if (ref) out.push(ref)
  }
  return dedupe(out)
}

/**
 * conanfile.py: references in `requires = …` (a string, tuple or list, possibly over several
 * lines) and the build/tool/test variants, and in `self.requires("…")`-style calls.
 */
export function parseConanfilePy(text: string): ParsedDependency[] {
  const out: ParsedDependency[] = []
  const literals = (chunk: string): void => {
    for (const m of chunk.matchAll(/(["'])([^"'\n]+)\1/g)) {
      const ref = conanReference(m[2])
      if (ref) out.push(ref)
    }
  }
  const code = text.replace(/^\s*#.*$/gm, '')
  for (const m of code.matchAll(/^\s*(?:build_|tool_|test_)?requires\s*=\s*/gm)) {
    const rest = code.slice((m.index ?? 0) + m[0].length)
    const open = rest[0]
    if (open === '(' || open === '[') {
      const close = rest.indexOf(open === '(' ? ')' : ']')
      literals(close >= 0 ? rest.slice(0, close) : rest.split('\n')[0])
    } else {
      literals(rest.split('\n')[0])
    }
  }
  for (const m of code.matchAll(/self\.(?:build_|tool_|test_)?requires\s*\(\s*(["'])([^"'\n]+)\1/g)) {
    const ref = conanReference(m[2])
    if (ref) out.push(ref)
  }
  return dedupe(out)
}

/** The package manager of a dependency file, by its base name, or null when it is none. */
export function dependencyFileManager(path: string): PackageManager | null {
  return DEPENDENCY_FILES[posix.basename(path)] ?? null
}

/** Parses the dependency file at `path` (its base name decides the format). */
export function parseDependencyFile(path: string, text: string, lookup: FileLookup = () => null): ParsedDependency[] {
  switch (posix.basename(path)) {
    case 'package-lock.json':
    case 'npm-shrinkwrap.json':
      return parseNpmLock(text)
    case 'yarn.lock':
      return parseYarnLock(text)
    case 'Gemfile.lock':
    case 'gems.locked':
      return parseGemfileLock(text)
    case 'composer.lock':
      return parseComposerLock(text)
    case 'requirements.txt':
      return parseRequirementsTxt(text)
    case 'Pipfile.lock':
      return parsePipfileLock(text)
    case 'pom.xml':
      return parsePomXml(text, path, lookup)
    case 'conanfile.txt':
      return parseConanfileTxt(text)
    case 'conanfile.py':
      return parseConanfilePy(text)
    default:
      return []
  }
}
