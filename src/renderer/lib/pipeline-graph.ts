/**
 * A pipeline's jobs as GitLab's pipeline graph lays them out: one column per stage in the order
 * the pipeline runs them, a node per job (the latest try of each name), and an edge from every
 * job a job `needs` to it where the jobs name their needs. Positions are computed, not measured:
 * nodes have a fixed size, so the edges can be drawn in one SVG over the columns.
 */

/** What the graph reads of a job (`GET /projects/:id/pipelines/:pipeline_id/jobs`). */
export interface PipelineJob {
  readonly id: number
  readonly name: string
  readonly stage: string
  readonly status: string
  readonly allow_failure?: boolean
  readonly duration?: number | null
  /** GitLab's REST answer has no needs; a job that carries them (GraphQL's shape or a name list) gets edges. */
  readonly needs?: readonly (string | { readonly name: string })[] | null
}

export interface GraphNode {
  readonly job: PipelineJob
  readonly x: number
  readonly y: number
}

export interface GraphStage {
  readonly name: string
  /** The stage's status as GitLab sums its jobs (failed, running, success…). */
  readonly status: string
  readonly x: number
  readonly nodes: readonly GraphNode[]
}

export interface GraphEdge {
  readonly from: number
  readonly to: number
  /** An SVG path from the right edge of the needed job to the left edge of the job needing it. */
  readonly path: string
}

export interface PipelineGraph {
  readonly stages: readonly GraphStage[]
  readonly edges: readonly GraphEdge[]
  readonly width: number
  readonly height: number
}

export const NODE_WIDTH = 200
export const NODE_HEIGHT = 36
export const COLUMN_GAP = 56
export const ROW_GAP = 10
/** Room above the first node of a column for the stage's name. */
export const HEADER_HEIGHT = 32

/** GitLab's order of precedence when a stage's jobs disagree: the first that any job has wins. */
const STATUS_ORDER = [
  'failed',
  'running',
  'pending',
  'preparing',
  'waiting_for_resource',
  'scheduled',
  'manual',
  'canceled',
  'success',
  'skipped',
  'created',
] as const

/** The status a stage shows for its jobs (an allowed failure counts as passed, as GitLab shows it). */
export function stageStatus(jobs: readonly PipelineJob[]): string {
  const statuses = new Set(jobs.map((j) => (j.status === 'failed' && j.allow_failure === true ? 'success' : j.status)))
  return STATUS_ORDER.find((s) => statuses.has(s)) ?? [...statuses][0] ?? 'created'
}

const needName = (need: string | { readonly name: string }): string => (typeof need === 'string' ? need : need.name)

/**
 * Lays out `jobs`: stages in the order their first job was created (jobs are created stage by
 * stage, so the lowest id of a stage orders it), a retried job shown once by its latest try,
 * jobs of a stage by name.
 */
export function layoutPipeline(jobs: readonly PipelineJob[]): PipelineGraph {
  const latest = new Map<string, PipelineJob>()
  for (const job of jobs) {
    const key = `${job.stage}\n${job.name}`
    const seen = latest.get(key)
    if (seen === undefined || seen.id < job.id) latest.set(key, job)
  }
  const byStage = new Map<string, PipelineJob[]>()
  const firstId = new Map<string, number>()
  for (const job of jobs) firstId.set(job.stage, Math.min(firstId.get(job.stage) ?? job.id, job.id))
  for (const job of latest.values()) byStage.set(job.stage, [...(byStage.get(job.stage) ?? []), job])
  const order = [...byStage.keys()].sort((a, b) => (firstId.get(a) ?? 0) - (firstId.get(b) ?? 0))

  const where = new Map<string, GraphNode>()
  const stages = order.map((name, column) => {
    const x = column * (NODE_WIDTH + COLUMN_GAP)
    const stageJobs = (byStage.get(name) ?? []).sort((a, b) => a.name.localeCompare(b.name))
    const nodes = stageJobs.map((job, row) => {
      const node = { job, x, y: HEADER_HEIGHT + row * (NODE_HEIGHT + ROW_GAP) }
      where.set(job.name, node)
      return node
    })
    return { name, status: stageStatus(stageJobs), x, nodes }
  })

  const edges: GraphEdge[] = []
  for (const stage of stages)
    for (const node of stage.nodes)
      for (const need of node.job.needs ?? []) {
        const from = where.get(needName(need))
        if (from === undefined || from === node) continue
        const x1 = from.x + NODE_WIDTH
        const y1 = from.y + NODE_HEIGHT / 2
        const x2 = node.x
        const y2 = node.y + NODE_HEIGHT / 2
        const bend = Math.max(16, (x2 - x1) / 2)
        edges.push({
          from: from.job.id,
          to: node.job.id,
          path: `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`,
        })
      }

  const rows = Math.max(0, ...stages.map((s) => s.nodes.length))
  return {
    stages,
    edges,
    width: stages.length === 0 ? 0 : stages.length * NODE_WIDTH + (stages.length - 1) * COLUMN_GAP,
    height: HEADER_HEIGHT + rows * NODE_HEIGHT + Math.max(0, rows - 1) * ROW_GAP,
  }
}
