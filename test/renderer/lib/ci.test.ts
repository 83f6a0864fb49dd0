import { describe, expect, it } from 'vitest'
import { formatSectionDuration, parseCiLog, type LogNode } from '../../../src/renderer/lib/ci-log'
import { layoutPipeline, NODE_WIDTH, COLUMN_GAP, stageStatus } from '../../../src/renderer/lib/pipeline-graph'

/** A node as text: a line's spans joined (`[red]text`), a section as `name(duration){…}`. */
function outline(nodes: readonly LogNode[]): unknown[] {
  return nodes.map((n) =>
    n.kind === 'line'
      ? `${n.line.number}:${n.line.spans.map((s) => (s.classes ? `[${s.classes}]${s.text}` : s.text)).join('')}`
      : {
          section: n.name,
          header: n.header.spans.map((s) => s.text).join(''),
          duration: n.duration,
          collapsed: n.collapsed,
          children: outline(n.children),
        },
  )
}

describe('a job log', () => {
  it('reads SGR colours and styles into classes, carried across lines until reset, and drops other controls', () => {
    const log = parseCiLog(
      '\x1b[32;1mChecking out\x1b[0;m done\n\x1b[31mred\nstill red\x1b[39m plain\x1b[2K\n\x1b[94;4mlink\x1b[0m',
    )
    expect(outline(log)).toEqual([
      '1:[ci-fg-green ci-bold]Checking out done',
      '2:[ci-fg-red]red',
      '3:[ci-fg-red]still red plain',
      '4:[ci-fg-bright-blue ci-underline]link',
    ])
  })

  it('keeps what a carriage return wrote last (progress lines), and skips 256-colour arguments', () => {
    expect(outline(parseCiLog('Downloading 10%\rDownloading 100%\r\n\x1b[38;5;196mx\x1b[0m\n'))).toEqual([
      '1:Downloading 100%',
      '2:x',
    ])
  })

  it('turns runner section markers into sections with a heading and a duration, nested, collapsed on request', () => {
    const raw = [
      'Running with gitlab-runner 17.0',
      'section_start:1700000000:prepare[collapsed=true]\r\x1b[0K\x1b[36mPreparing\x1b[0m',
      'Using docker',
      'section_end:1700000005:prepare\r\x1b[0Ksection_start:1700000005:step_script\r\x1b[0KExecuting "step_script"',
      'section_start:1700000006:inner\r\x1b[0KInner',
      '$ npm test',
      'section_end:1700000070:inner\r\x1b[0K',
      'section_end:1700000072:step_script\r\x1b[0K',
      'Job succeeded',
      '',
    ].join('\n')
    expect(outline(parseCiLog(raw))).toEqual([
      '1:Running with gitlab-runner 17.0',
      { section: 'prepare', header: 'Preparing', duration: 5, collapsed: true, children: ['3:Using docker'] },
      {
        section: 'step_script',
        header: 'Executing "step_script"',
        duration: 67,
        collapsed: false,
        children: [{ section: 'inner', header: 'Inner', duration: 64, collapsed: false, children: ['6:$ npm test'] }],
      },
      '9:Job succeeded',
    ])
  })

  it('shows a section still running open without a duration, and ignores an end whose start was cut off', () => {
    const raw = 'section_end:1700000001:gone\r\x1b[0K\nsection_start:1700000002:step_script\r\x1b[0KRunning\n$ sleep 60'
    expect(outline(parseCiLog(raw))).toEqual([
      { section: 'step_script', header: 'Running', duration: null, collapsed: false, children: ['3:$ sleep 60'] },
    ])
    expect([formatSectionDuration(7), formatSectionDuration(125), formatSectionDuration(3723)]).toEqual([
      '00:07',
      '02:05',
      '01:02:03',
    ])
  })
})

describe('a pipeline graph', () => {
  const jobs = [
    { id: 10, name: 'compile', stage: 'build', status: 'success' },
    { id: 11, name: 'lint', stage: 'build', status: 'failed' },
    { id: 12, name: 'unit', stage: 'test', status: 'success', needs: ['compile'] },
    { id: 13, name: 'e2e', stage: 'test', status: 'failed', allow_failure: true, needs: [{ name: 'compile' }] },
    { id: 14, name: 'deploy', stage: 'deploy', status: 'manual', needs: ['unit', 'missing'] },
    { id: 15, name: 'lint', stage: 'build', status: 'success' },
  ]

  it('puts stages in run order as columns, each job once by its latest try, sorted by name', () => {
    const graph = layoutPipeline(jobs)
    expect(graph.stages.map((s) => [s.name, s.x, s.nodes.map((n) => `${n.job.name}#${n.job.id}`)])).toEqual([
      ['build', 0, ['compile#10', 'lint#15']],
      ['test', NODE_WIDTH + COLUMN_GAP, ['e2e#13', 'unit#12']],
      ['deploy', 2 * (NODE_WIDTH + COLUMN_GAP), ['deploy#14']],
    ])
    expect(graph.width).toBe(3 * NODE_WIDTH + 2 * COLUMN_GAP)
  })

  it('draws an edge from each needed job to the job needing it, where both are in the pipeline', () => {
    const edges = layoutPipeline(jobs).edges.map((e) => [e.from, e.to])
    expect(edges).toEqual([
      [10, 13],
      [10, 12],
      [12, 14],
    ])
    expect(layoutPipeline(jobs.map(({ needs: _, ...j }) => j)).edges).toEqual([])
  })

  it('sums a stage’s status as GitLab does: a failure wins, an allowed failure counts as passed', () => {
    expect(layoutPipeline(jobs).stages.map((s) => s.status)).toEqual(['success', 'success', 'manual'])
    expect(
      stageStatus([
        { id: 1, name: 'a', stage: 's', status: 'running' },
        { id: 2, name: 'b', stage: 's', status: 'failed' },
      ]),
    ).toBe('failed')
  })
})
