import { describe, expect, it } from 'vitest'
import { loadCiConfig, type IncludeSource } from '../../src/server/modules/pipelines/config/config'
import { parseCiDuration } from '../../src/server/modules/pipelines/config/duration'
import { evaluateExpression, isValidExpression } from '../../src/server/modules/pipelines/config/expressions'
import { globMatch, seedJobs, workflowAllows, type SeedContext } from '../../src/server/modules/pipelines/config/seed'
import { compositeStatus, nextJobStatus } from '../../src/server/modules/pipelines/config/status'

function source(
  files: Readonly<Record<string, string>> = {},
  variables: Readonly<Record<string, string>> = {},
): IncludeSource {
  return {
    local: { projectPath: 'g/p', sha: 'a'.repeat(40), webUrl: 'http://x/g/p', read: async (p) => files[p] ?? null },
    variables,
  }
}
const noProject: IncludeSource = { local: null, variables: {} }

async function errorsOf(content: string, src: IncludeSource = noProject): Promise<readonly string[]> {
  return (await loadCiConfig(content, src)).errors
}

function ctx(over: Partial<SeedContext> = {}): SeedContext {
  return {
    ref: 'main',
    tag: false,
    source: 'push',
    projectPath: 'g/p',
    variables: { CI_COMMIT_BRANCH: 'main', CI_COMMIT_REF_NAME: 'main', CI_PIPELINE_SOURCE: 'push' },
    changedPaths: null,
    repositoryPaths: [],
    ...over,
  }
}

describe('CI configuration: parsing and validation', () => {
  it('asks for content when the configuration is blank', async () => {
    expect(await errorsOf('  \n')).toEqual(['Please provide content of .gitlab-ci.yml'])
  })

  it('reports YAML syntax errors with their position, as Psych words them', async () => {
    const [error] = await errorsOf('build:\n  script: [echo\n')
    expect(error).toMatch(/^\(<unknown>\): .* at line \d+ column \d+$/)
  })

  it('refuses a document that is not a mapping', async () => {
    expect(await errorsOf('- a\n- b\n')).toEqual(['Invalid configuration format'])
  })

  it('requires script (or run/trigger) on visible jobs and at least one visible job', async () => {
    expect(await errorsOf('rubocop:\n  scriptt:\n    - bundle exec rubocop\n')).toEqual([
      'jobs rubocop config should implement the script:, run:, or trigger: keyword',
      'jobs config should contain at least one visible job',
    ])
  })

  it('ignores hidden jobs when counting visible ones', async () => {
    expect(await errorsOf('.template:\n  script: echo\n')).toEqual([
      'jobs config should contain at least one visible job',
    ])
  })

  it('names unknown job keys and invalid values', async () => {
    const errors = await errorsOf(
      'build:\n  script: make\n  foo: 1\n  bar: 2\n  when: sometimes\n  tags: tag\n  stage: [x]\n',
    )
    expect(errors).toContain('jobs:build config contains unknown keys: foo, bar')
    expect(errors).toContain('jobs:build when should be one of: on_success, on_failure, always, manual, delayed')
    expect(errors).toContain('jobs:build:tags config should be an array of strings')
    expect(errors).toContain('jobs:build:stage config should be a string')
  })

  it('checks scripts, stages, variables, rules, artifacts and environments', async () => {
    const errors = await errorsOf(`stages: build
variables: [a]
build:
  script: {a: 1}
  rules:
    - if: '$A ==='
      foo: 1
  artifacts:
    paths: out
    expire_in: soon
  environment:
    action: destroy
`)
    expect(errors).toEqual(
      expect.arrayContaining([
        'stages config should be an array of strings',
        'variables config should be a hash of key value pairs, value can be a hash',
        'jobs:build:script config should be a string or a nested array of strings up to 10 levels deep',
        'jobs:build:rules:rule config contains unknown keys: foo',
        'jobs:build:rules:rule if invalid expression syntax',
        'jobs:build:artifacts paths should be an array of strings',
        'jobs:build:artifacts expire in should be a duration',
        "jobs:build:environment name can't be blank",
        'jobs:build:environment action should be start, stop, prepare, verify, or access',
      ]),
    )
  })

  it('refuses rules together with only or except', async () => {
    expect(await errorsOf('build:\n  script: make\n  rules: [{when: always}]\n  only: [main]\n')).toContain(
      'jobs:build config key may not be used with `rules`: only',
    )
  })

  it('checks unknown default and workflow keys', async () => {
    const errors = await errorsOf('default:\n  stage: x\nworkflow:\n  when: always\nbuild:\n  script: make\n')
    expect(errors).toEqual([
      'default config contains unknown keys: stage',
      'workflow config contains unknown keys: when',
    ])
  })

  it('requires the chosen stage to exist', async () => {
    expect(await errorsOf('stages: [build]\ntest:\n  stage: test\n  script: make\n')).toEqual([
      'test job: chosen stage does not exist; available stages are .pre, build, .post',
    ])
  })

  it('requires needs and dependencies to name jobs of this or earlier stages', async () => {
    expect(await errorsOf('test:\n  script: t\n  needs: [build]\n')).toEqual(['test job: undefined need: build'])
    expect(await errorsOf('test:\n  script: t\n  dependencies: [build]\n')).toEqual([
      'test job: undefined dependency: build',
    ])
    expect(
      await errorsOf('build:\n  stage: build\n  script: b\n  needs: [deploy]\ndeploy:\n  stage: deploy\n  script: d\n'),
    ).toEqual(['build job: need deploy is not defined in current or prior stages'])
    expect(
      await errorsOf(
        'build:\n  stage: build\n  script: b\n  dependencies: [deploy]\ndeploy:\n  stage: deploy\n  script: d\n',
      ),
    ).toEqual(['build job: dependency deploy is not defined in current or prior stages'])
  })

  it('accepts needs within the same stage and on earlier stages', async () => {
    const loaded = await loadCiConfig(
      'a:\n  stage: test\n  script: a\nb:\n  stage: test\n  script: b\n  needs: [a]\nbuild:\n  stage: build\n  script: c\n',
      noProject,
    )
    expect(loaded.errors).toEqual([])
    expect(loaded.config?.jobs.map((j) => [j.name, j.needs])).toEqual([
      ['a', null],
      ['b', ['a']],
      ['build', null],
    ])
  })

  it('checks that on_stop names a stop job of the same environment', async () => {
    expect(await errorsOf('deploy:\n  script: d\n  environment: {name: prod, on_stop: stop}\n')).toEqual([
      'deploy job: on_stop job stop is not defined',
    ])
    expect(
      await errorsOf(
        'deploy:\n  script: d\n  environment: {name: prod, on_stop: stop}\nstop:\n  script: s\n  environment: {name: prod}\n',
      ),
    ).toEqual(['deploy job: on_stop job stop needs to have action stop defined'])
  })
})

describe('CI configuration: include, !reference, extends and defaults', () => {
  it('merges local includes from the repository under the including file', async () => {
    const loaded = await loadCiConfig(
      'include:\n  - local: /ci/build.yml\nvariables: {A: main}\ntest:\n  script: t\n',
      source({ 'ci/build.yml': 'variables: {A: inc, B: inc}\nbuild:\n  script: b\n' }),
    )
    expect(loaded.errors).toEqual([])
    expect(loaded.config?.jobs.map((j) => j.name)).toEqual(['build', 'test'])
    expect(loaded.config?.variables).toEqual({ A: 'main', B: 'inc' })
    expect(loaded.includes).toEqual([
      {
        type: 'local',
        location: 'ci/build.yml',
        blob: `http://x/g/p/-/blob/${'a'.repeat(40)}/ci/build.yml`,
        raw: `http://x/g/p/-/raw/${'a'.repeat(40)}/ci/build.yml`,
        extra: {},
        context_project: 'g/p',
        context_sha: 'a'.repeat(40),
      },
    ])
  })

  it('reports include errors: missing file, no project, bad extension, bad YAML, included twice, unsupported remote', async () => {
    expect(await errorsOf('include: nope.yml\na:\n  script: a\n', source())).toEqual([
      'Local file `nope.yml` does not exist!',
    ])
    expect(await errorsOf('include: a.yml\na:\n  script: a\n')).toEqual(['Local file `a.yml` does not have project!'])
    expect(await errorsOf('include: a.txt\na:\n  script: a\n', source({ 'a.txt': 'x: 1' }))).toEqual([
      'Included file `a.txt` does not have YAML extension!',
    ])
    expect(await errorsOf('include: a.yml\na:\n  script: a\n', source({ 'a.yml': 'b: [' }))).toEqual([
      'Included file `a.yml` does not have valid YAML syntax!',
    ])
    expect(
      await errorsOf('include: [a.yml, a.yml]\na:\n  script: a\n', source({ 'a.yml': 'b:\n  script: b\n' })),
    ).toEqual(['Include `{local: a.yml}` was already included!'])
    expect((await errorsOf('include: https://example.com/ci.yml\na:\n  script: a\n'))[0]).toMatch(
      /^Remote file `https:\/\/example.com\/ci.yml` could not be fetched/,
    )
  })

  it('applies include rules with the given variables', async () => {
    const files = { 'extra.yml': 'extra:\n  script: e\n' }
    const yaml = 'include:\n  - local: extra.yml\n    rules:\n      - if: $FLAG == "on"\na:\n  script: a\n'
    expect((await loadCiConfig(yaml, source(files, { FLAG: 'on' }))).config?.jobs.map((j) => j.name)).toEqual([
      'extra',
      'a',
    ])
    expect((await loadCiConfig(yaml, source(files, { FLAG: 'off' }))).config?.jobs.map((j) => j.name)).toEqual(['a'])
  })

  it('resolves !reference and anchors, and expands extends with deep merge', async () => {
    const loaded = await loadCiConfig(
      `.base:
  image: alpine
  variables: {A: base, B: base}
  script: [echo base]
.defaults: &defaults
  tags: [docker]
test:
  <<: *defaults
  extends: .base
  variables: {B: job}
  script:
    - !reference [.base, script]
    - echo test
`,
      noProject,
    )
    expect(loaded.errors).toEqual([])
    const [test] = loaded.config?.jobs ?? []
    expect(test).toMatchObject({
      name: 'test',
      image: { name: 'alpine' },
      tags: ['docker'],
      script: ['echo base', 'echo test'],
      variables: { A: 'base', B: 'job' },
    })
  })

  it('reports extends errors', async () => {
    expect(await errorsOf('a:\n  extends: .nope\n  script: a\n')).toEqual(['a: unknown keys in `extends` (.nope)'])
    expect(await errorsOf('.x:\n  extends: .y\n.y:\n  extends: .x\na:\n  extends: .x\n  script: a\n')).toEqual([
      '.y: circular dependency detected in `extends`',
    ])
  })

  it('keeps local includes and extends out of merged_yaml, as the lint API documents', async () => {
    const loaded = await loadCiConfig(
      'include: ci/a.yml\n.base: &b {script: echo}\ntest:\n  extends: .base\n  stage: test\n',
      source({ 'ci/a.yml': 'other:\n  script: o\n' }),
    )
    expect(loaded.errors).toEqual([])
    expect(loaded.mergedYaml).toBe(
      '---\ninclude:\n- ci/a.yml\n.base:\n  script: echo\ntest:\n  extends: .base\n  stage: test\n',
    )
  })

  it('inherits default: keywords unless the job sets them or opts out with inherit', async () => {
    const loaded = await loadCiConfig(
      `default:
  image: ruby
  before_script: [setup]
variables: {G: 1}
a:
  script: a
b:
  image: node
  inherit:
    default: false
    variables: false
  script: b
`,
      noProject,
    )
    const [a, b] = loaded.config?.jobs ?? []
    expect(a).toMatchObject({ image: { name: 'ruby' }, before_script: ['setup'], variables: { G: '1' } })
    expect(b).toMatchObject({ image: { name: 'node' }, before_script: [], variables: {} })
  })

  it('expands parallel jobs and matrices, and needs on them', async () => {
    const loaded = await loadCiConfig(
      't:\n  stage: build\n  script: t\n  parallel: 2\nm:\n  stage: build\n  script: m\n  parallel:\n    matrix:\n      - OS: [linux, mac]\nd:\n  script: d\n  needs: [t]\n',
      noProject,
    )
    expect(loaded.config?.jobs.map((j) => j.name)).toEqual(['t 1/2', 't 2/2', 'm: [linux]', 'm: [mac]', 'd'])
    expect(loaded.config?.jobs[4].needs).toEqual(['t 1/2', 't 2/2'])
    expect(loaded.config?.jobs[2].variables).toMatchObject({ OS: 'linux', CI_NODE_INDEX: '1', CI_NODE_TOTAL: '2' })
  })

  it('warns about rules:when without workflow:rules', async () => {
    const loaded = await loadCiConfig('a:\n  script: a\n  rules:\n    - when: always\n', noProject)
    expect(loaded.warnings).toEqual([
      'jobs:a may allow multiple pipelines to run for a single action due to `rules:when` clause with no `workflow:rules` - read more: https://docs.gitlab.com/ee/ci/troubleshooting.html#pipeline-warnings',
    ])
  })
})

describe('CI expressions', () => {
  const vars = { BRANCH: 'main', EMPTY: '', PATTERN: '/^rel/' }
  it.each([
    ['$BRANCH == "main"', true],
    ['$BRANCH != "main"', false],
    ['$BRANCH', true],
    ['$EMPTY', false],
    ['$MISSING', false],
    ['$MISSING == null', true],
    ['$BRANCH =~ /^ma/', true],
    ['$BRANCH !~ /^ma/', false],
    ['"release-1" =~ $PATTERN', true],
    ['$BRANCH == "x" || $BRANCH == "main"', true],
    ['$BRANCH == "main" && $EMPTY', false],
    ['($BRANCH == "x" || $BRANCH == "main") && $BRANCH =~ /IN/i', true],
  ])('%s is %s', (expr, expected) => {
    expect(evaluateExpression(expr, vars)).toBe(expected)
  })

  it('tells valid expressions from invalid ones', () => {
    expect(isValidExpression('$A == "b"')).toBe(true)
    expect(isValidExpression('$A ==')).toBe(false)
    expect(isValidExpression('($A')).toBe(false)
    expect(isValidExpression('A == B')).toBe(false)
  })
})

describe('CI pipeline seeding', () => {
  async function config(yaml: string) {
    const loaded = await loadCiConfig(yaml, noProject)
    if (!loaded.config) throw new Error(loaded.errors.join('; '))
    return loaded.config
  }

  it('runs jobs on branches and tags by default, and honours only and except refs', async () => {
    const c = await config(
      'a:\n  script: a\nb:\n  script: b\n  only: [tags]\nc:\n  script: c\n  except: [main]\nd:\n  script: d\n  only: [/^feat/]\ne:\n  script: e\n  only: [api]\n',
    )
    expect(seedJobs(c, ctx()).seeds.map((s) => s.job.name)).toEqual(['a'])
    expect(seedJobs(c, ctx({ ref: 'feature', variables: {} })).seeds.map((s) => s.job.name)).toEqual(['a', 'c', 'd'])
    expect(seedJobs(c, ctx({ ref: 'v1', tag: true })).seeds.map((s) => s.job.name)).toEqual(['a', 'b', 'c'])
    expect(seedJobs(c, ctx({ source: 'api' })).seeds.map((s) => s.job.name)).toEqual(['a', 'e'])
  })

  it('lets rules decide inclusion, when and allow_failure', async () => {
    const c = await config(`a:
  script: a
  rules:
    - if: $CI_COMMIT_BRANCH == "main"
      when: manual
    - when: never
b:
  script: b
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule"
c:
  script: c
  when: manual
`)
    const seeds = seedJobs(c, ctx()).seeds
    expect(seeds.map((s) => [s.job.name, s.when, s.allowFailure])).toEqual([
      ['a', 'manual', false],
      ['c', 'manual', true],
    ])
  })

  it('decides rules:changes and rules:exists on paths', async () => {
    const c = await config(
      'a:\n  script: a\n  rules:\n    - changes: ["docs/**/*.md"]\nb:\n  script: b\n  rules:\n    - exists: [Dockerfile]\n',
    )
    expect(
      seedJobs(c, ctx({ changedPaths: ['src/x.ts'], repositoryPaths: ['Dockerfile'] })).seeds.map((s) => s.job.name),
    ).toEqual(['b'])
    expect(
      seedJobs(c, ctx({ changedPaths: ['docs/a/b.md'], repositoryPaths: [] })).seeds.map((s) => s.job.name),
    ).toEqual(['a'])
    expect(seedJobs(c, ctx({ changedPaths: null })).seeds.map((s) => s.job.name)).toEqual(['a'])
  })

  it('filters whole pipelines with workflow:rules', async () => {
    const c = await config(
      'workflow:\n  rules:\n    - if: $CI_COMMIT_TAG\n    - if: $CI_COMMIT_BRANCH == "main"\na:\n  script: a\n',
    )
    expect(workflowAllows(c, ctx())).toBe(true)
    expect(workflowAllows(c, ctx({ ref: 'x', variables: { CI_COMMIT_BRANCH: 'x' } }))).toBe(false)
  })

  it('fails when a needed job was left out, unless the need is optional', async () => {
    const c = await config('a:\n  stage: build\n  script: a\n  only: [tags]\nb:\n  script: b\n  needs: [a]\n')
    expect(seedJobs(c, ctx()).errors[0]).toMatch(/^'b' job needs 'a' job, but 'a' does not exist in the pipeline/)
    const optional = await config(
      'a:\n  stage: build\n  script: a\n  only: [tags]\nb:\n  script: b\n  needs: [{job: a, optional: true}]\n',
    )
    expect(seedJobs(optional, ctx())).toMatchObject({ errors: [], seeds: [{ job: { name: 'b', needs: [] } }] })
  })

  it('matches globs as GitLab does', () => {
    expect(globMatch('**/*.md', 'a/b/c.md')).toBe(true)
    expect(globMatch('**/*.md', 'c.md')).toBe(true)
    expect(globMatch('*.md', 'a/c.md')).toBe(false)
    expect(globMatch('src/{a,b}.ts', 'src/b.ts')).toBe(true)
  })
})

describe('CI statuses', () => {
  const j = (status: string, allow = false) => ({ status: status as 'success', allow_failure: allow })
  it.each([
    [[j('success'), j('success')], 'success'],
    [[j('success'), j('skipped')], 'success'],
    [[j('skipped'), j('manual', true)], 'skipped'],
    [[j('success'), j('failed', true)], 'success'],
    [[j('success'), j('failed')], 'failed'],
    [[j('success'), j('canceled')], 'canceled'],
    [[j('pending'), j('created')], 'pending'],
    [[j('running'), j('created')], 'running'],
    [[j('success'), j('created')], 'running'],
    [[j('success'), j('manual')], 'manual'],
    [[j('created'), j('created')], 'created'],
  ])('composite of %j is %s', (jobs, expected) => {
    expect(compositeStatus(jobs)).toBe(expected)
  })

  it('makes a need that will not run skip the job, and an unfinished need hold it', () => {
    expect(compositeStatus([j('skipped')], true)).toBe('skipped')
    expect(compositeStatus([j('running')], true)).toBe('pending')
    expect(compositeStatus([j('success')], true)).toBe('success')
  })

  it.each([
    ['on_success', 'success', false, 'pending'],
    ['on_success', 'skipped', false, 'pending'],
    ['on_success', 'skipped', true, 'skipped'],
    ['on_success', 'failed', false, 'skipped'],
    ['on_failure', 'failed', false, 'pending'],
    ['on_failure', 'success', false, 'skipped'],
    ['always', 'failed', false, 'pending'],
    ['always', 'canceled', false, 'skipped'],
    ['manual', 'success', false, 'manual'],
    ['manual', 'failed', false, 'skipped'],
  ])('a %s job after %s (dag %s) becomes %s', (when, prior, dag, expected) => {
    expect(nextJobStatus(when, prior as 'success', dag)).toBe(expected)
  })

  it('reads CI durations', () => {
    expect(parseCiDuration('1h 30m')).toBe(5400)
    expect(parseCiDuration('2 days')).toBe(172800)
    expect(parseCiDuration('3600')).toBe(3600)
    expect(parseCiDuration('soon')).toBeNull()
  })
})
