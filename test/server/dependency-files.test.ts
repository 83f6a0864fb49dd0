import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  dependencyFileManager,
  parseComposerLock,
  parseConanfilePy,
  parseConanfileTxt,
  parseDependencyFile,
  parseGemfileLock,
  parseNpmLock,
  parsePipfileLock,
  parsePomXml,
  parseRequirementsTxt,
  parseYarnLock,
  type ParsedDependency,
} from '../../src/server/modules/dependencies/dependency-files'

const FIXTURES = join(__dirname, '..', 'fixtures', 'dependency-files')
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8')
const sorted = (deps: readonly ParsedDependency[]): string[] => deps.map((d) => `${d.name}@${d.version}`).sort()

describe('dependency file parsers', () => {
  it('npm lockfile v3: installed packages by install path, nested and scoped ones included, root and workspace links left out', () => {
    expect(sorted(parseNpmLock(fixture('package-lock.v3.json')))).toEqual([
      '@babel/code-frame@7.22.13',
      'ansi-styles@3.2.1',
      'debug@4.3.4',
      'lodash@4.17.20',
      'ms@2.1.2',
    ])
  })

  it('npm lockfile v1: nested dependencies walked', () => {
    expect(sorted(parseNpmLock(fixture('package-lock.v1.json')))).toEqual(['debug@2.6.9', 'express@4.17.1', 'ms@2.0.0'])
  })

  it('yarn v1: one entry per resolved block, scoped names and several versions of a package', () => {
    expect(sorted(parseYarnLock(fixture('yarn.v1.lock')))).toEqual([
      '@babel/code-frame@7.12.13',
      'debug@2.6.9',
      'debug@4.3.1',
      'ms@2.0.0',
    ])
  })

  it('yarn berry: names from resolutions, the workspace left out', () => {
    expect(sorted(parseYarnLock(fixture('yarn.berry.lock')))).toEqual(['@types/node@18.11.9', 'lodash@4.17.21'])
  })

  it('Gemfile.lock: specs of GEM and GIT sections, platform suffixes dropped, requirement lines ignored', () => {
    expect(sorted(parseGemfileLock(fixture('Gemfile.lock')))).toEqual([
      'actionpack@6.1.7',
      'concurrent-ruby@1.1.10',
      'nokogiri@1.13.10',
      'racc@1.6.1',
      'rack@2.2.4',
      'sprockets@4.2.0',
    ])
  })

  it('composer.lock: packages and packages-dev', () => {
    expect(sorted(parseComposerLock(fixture('composer.lock')))).toEqual([
      'guzzlehttp/guzzle@7.5.0',
      'monolog/monolog@2.8.0',
      'phpunit/phpunit@9.5.26',
    ])
  })

  it('requirements.txt: pinned requirements with extras, markers, comments and hash continuations; options, ranges and URLs skipped', () => {
    expect(sorted(parseRequirementsTxt(fixture('requirements.txt')))).toEqual([
      'Django@3.2.16',
      'cryptography@38.0.4',
      'requests@2.28.1',
      'urllib3@1.26.13',
    ])
  })

  it('Pipfile.lock: default and develop, == removed', () => {
    expect(sorted(parsePipfileLock(fixture('Pipfile.lock')))).toEqual(['flask@2.2.2', 'jinja2@3.1.2', 'pytest@7.2.0'])
  })

  it('pom.xml: groupId/artifactId names, versions through properties', () => {
    expect(sorted(parsePomXml(fixture('pom.xml')))).toEqual([
      'junit/junit@4.13.2',
      'org.apache.logging.log4j/log4j-core@2.14.1',
    ])
  })

  it('pom.xml of a module: versions from the parent POM (dependencyManagement, project.version), unresolvable ones skipped', () => {
    const lookup = (path: string): string | null => (path === 'pom.xml' ? fixture('pom.xml') : null)
    expect(sorted(parsePomXml(fixture('service/pom.xml'), 'service/pom.xml', lookup))).toEqual([
      'com.example.shop/shop-model@2.3.0',
      'com.fasterxml.jackson.core/jackson-databind@2.13.4',
    ])
  })

  it('conanfile.txt: requires and build requires, user/channel and revisions dropped from the version', () => {
    expect(sorted(parseConanfileTxt(fixture('conanfile.txt')))).toEqual([
      'cmake@3.25.1',
      'openssl@3.0.7',
      'poco@1.12.4',
      'zlib@1.2.13',
    ])
  })

  it('conanfile.py: requires tuples, tool_requires, self.requires calls; comments ignored', () => {
    expect(sorted(parseConanfilePy(fixture('conanfile.py')))).toEqual([
      'boost@1.80.0',
      'fmt@9.1.0',
      'gtest@1.12.1',
      'ninja@1.11.1',
      'spdlog@1.11.0',
      'winflexbison@2.5.24',
    ])
  })

  it('yields nothing for malformed files instead of failing', () => {
    expect(parseNpmLock('{ not json')).toEqual([])
    expect(parseComposerLock('[]')).toEqual([])
    expect(parsePipfileLock('')).toEqual([])
    expect(parsePomXml('<project><dependencies>')).toEqual([])
    expect(parseYarnLock('__metadata:\n  version: [\n')).toEqual([])
    expect(parseGemfileLock('garbage')).toEqual([])
  })

  it('knows dependency files by base name and dispatches on it', () => {
    expect(dependencyFileManager('a/b/yarn.lock')).toBe('yarn')
    expect(dependencyFileManager('Pipfile.lock')).toBe('pip')
    expect(dependencyFileManager('conanfile.py')).toBe('conan')
    expect(dependencyFileManager('package.json')).toBeNull()
    expect(sorted(parseDependencyFile('sub/Gemfile.lock', fixture('Gemfile.lock')))).toContain('rack@2.2.4')
  })
})
