import { posix } from 'node:path'
import type { Caller } from '../../platform/caller'
import { findFilesByName, readBlobs } from '../../platform/git/find-files'
import { isEmptyRepo } from '../../platform/git/project-repo'
import { defaultRef, resolveUserRef, type CodeProject } from '../../platform/http/repository'
import { dependencyFindings } from '../vulnerabilities'
import { DEPENDENCY_FILES, dependencyFileManager, parseDependencyFile, type PackageManager } from './dependency-files'

/** One dependency as the dependency list shows it. */
export interface Dependency {
  readonly name: string
  readonly version: string
  readonly packageManager: PackageManager
  readonly dependencyFilePath: string
}

/**
 * How deep below the root dependency files are looked for: GitLab's dependency scanning default
 * (`DS_MAX_DEPTH` 2), so `a/b/package-lock.json` counts and `a/b/c/package-lock.json` does not.
 */
export const MAX_DIRECTORY_DEPTH = 2
/** Directories never scanned: GitLab's default `DS_EXCLUDED_PATHS`, plus installed packages. */
const EXCLUDED_DIRECTORIES = new Set(['spec', 'test', 'tests', 'tmp', 'node_modules', 'vendor'])
/** Files larger than this are not parsed (a lock file this large is generated noise). */
const MAX_FILE_BYTES = 20 * 1024 * 1024

function scanned(path: string): boolean {
  const dirs = path.split('/').slice(0, -1)
  return dirs.length <= MAX_DIRECTORY_DEPTH && !dirs.some((d) => EXCLUDED_DIRECTORIES.has(d))
}

// Dependencies are a function of the commit: a few recent answers are kept, since clients page
// through the same list request after request.
const CACHE_SIZE = 16
const cache = new Map<string, Promise<readonly Dependency[]>>()

async function compute(gitDir: string, sha: string): Promise<readonly Dependency[]> {
  const files = (await findFilesByName(gitDir, sha, (name) => name in DEPENDENCY_FILES)).filter(
    (f) => scanned(f.path) && f.size <= MAX_FILE_BYTES,
  )
  // Parent POMs may sit anywhere in the tree, so every pom.xml is read, scanned or not.
  const poms = (await findFilesByName(gitDir, sha, (name) => name === 'pom.xml')).filter(
    (f) => f.size <= MAX_FILE_BYTES,
  )
  const contents = await readBlobs(
    gitDir,
    [...files, ...poms].map((f) => f.oid),
  )
  const byPath = new Map([...files, ...poms].map((f) => [f.path, f.oid]))
  const lookup = (path: string): string | null => {
    const oid = byPath.get(posix.normalize(path))
    const content = oid ? contents.get(oid) : undefined
    return content ? content.toString('utf8') : null
  }
  const out: Dependency[] = []
  for (const file of files) {
    const manager = dependencyFileManager(file.path)
    const content = contents.get(file.oid)
    if (!manager || !content) continue
    for (const d of parseDependencyFile(file.path, content.toString('utf8'), lookup)) {
      out.push({ name: d.name, version: d.version, packageManager: manager, dependencyFilePath: file.path })
    }
  }
  return out.sort(
    (a, b) =>
      a.name.localeCompare(b.name) ||
      a.version.localeCompare(b.version) ||
      a.dependencyFilePath.localeCompare(b.dependencyFilePath),
  )
}

/**
 * The dependencies declared by the dependency files of commit `sha` (every supported lock file
 * or manifest at the root and up to MAX_DIRECTORY_DEPTH directories down), sorted by name.
 */
export function repositoryDependencies(gitDir: string, sha: string): Promise<readonly Dependency[]> {
  const key = `${gitDir}\0${sha}`
  let hit = cache.get(key)
  if (hit) {
    cache.delete(key)
  } else {
    hit = compute(gitDir, sha)
    hit.catch(() => cache.delete(key))
  }
  cache.set(key, hit)
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  return hit
}

/** The dependencies of the project's default branch; none for an empty or missing repository. */
export async function defaultBranchDependencies(repo: CodeProject): Promise<readonly Dependency[]> {
  if (!repo.exists || (await isEmptyRepo(repo.gitDir))) return []
  const sha = await resolveUserRef(repo, defaultRef(repo.project), 'ref')
  return sha ? repositoryDependencies(repo.gitDir, sha) : []
}

/** A vulnerability of a dependency, as the dependency list shows it. */
export interface DependencyVulnerability {
  readonly name: string
  readonly severity: string
  /** The vulnerability created from the finding, when there is one. */
  readonly id?: number
  readonly url?: string
}

/**
 * The project's open dependency-scanning findings keyed by `name\0version` (name lowercased,
 * as package registries compare names), for joining onto the dependency list.
 */
export function dependencyVulnerabilities(
  caller: Caller,
  projectId: number,
  vulnerabilityUrl: (id: number) => string,
): Map<string, DependencyVulnerability[]> {
  const out = new Map<string, DependencyVulnerability[]>()
  for (const f of dependencyFindings(caller.db, projectId)) {
    const key = `${(f.package_name as string).toLowerCase()}\0${f.package_version ?? ''}`
    const entry: DependencyVulnerability =
      f.vulnerability_id !== null
        ? { name: f.name, severity: f.severity, id: f.vulnerability_id, url: vulnerabilityUrl(f.vulnerability_id) }
        : { name: f.name, severity: f.severity }
    const list = out.get(key)
    if (list) list.push(entry)
    else out.set(key, [entry])
  }
  return out
}

/** The key dependencyVulnerabilities uses for a dependency. */
export function dependencyKey(d: Pick<Dependency, 'name' | 'version'>): string {
  return `${d.name.toLowerCase()}\0${d.version}`
}
