/**
 * The demo's CI/CD and operations content, planned as steps of the same replay as the rest of the
 * demo (demo.ts): runners, pipelines run through the runner-facing services with their logs,
 * deployments to review apps, staging and a protected production, an alert integration with
 * alerts, error tracking, a Pages domain with its certificate, security findings and
 * vulnerabilities, replication nodes and, when the server has a second storage, a finished
 * repository storage move. Everything acts on the server's own context, where the CI listeners
 * (deployments, protected environments) are registered.
 */
import { callerFor, type Caller } from '../platform/caller'
import type { ServerContext } from '../platform/context'
import { findEnvironmentByName } from '../modules/environments/queries'
import {
  appendTrace,
  findPipelineById,
  pipelineJobs,
  type JobRow,
  type PipelineRow,
  ciSlug,
  assignJob,
  finishJob,
  cancelPipeline,
  createPipeline,
  jobOptions,
  latestJobs,
  playJob,
  retryJob,
} from '../modules/pipelines'
import type { NamespaceRow, ProjectRow, UserRow } from '../platform/db/rows'
import {
  findRunnerById,
  touchRunner,
  type RunnerInfo,
  instanceRegistrationToken,
  registerRunner,
  runnersToken,
  updateRunner,
} from '../modules/runners'
import { projectGitDir } from '../platform/git/project-repo'
import { resolveCommit } from '../platform/git/refs'
import {
  createHttpIntegration,
  findAlertByIid,
  findHttpIntegration,
  receiveAlertPayload,
  setAlertAssignees,
  updateAlertStatus,
  type AlertRow,
} from '../modules/alerts'
import { createClientKey, updateErrorTrackingSetting } from '../modules/error-tracking'
import { runEnvironmentMaintenance, stopEnvironment } from '../modules/environments/service'
import { createGeoNode } from '../modules/geo-nodes/service'
import { createPagesDomain } from '../modules/pages-domains'
import { protectEnvironment } from '../modules/environments/protected-service'
import { scheduleProjectMove, storageMovesIdle } from '../modules/storage-moves'
import {
  createVulnerabilityFromFinding,
  findVulnerability,
  listFindings,
  seedSecurityFindings,
  transitionVulnerability,
} from '../modules/vulnerabilities'
import { demoCertificate } from './certificate'
import { CI_COMMANDS } from './code'
import { DAY, HOUR, MINUTE, type MergeRequestPlan, type ProjectPlan, type RefMove } from './plan'
import { Random } from './random'

const SECOND = 1000

/** What the operations planner needs from the demo writer. */
export interface DemoHost {
  /** The server's own context: CI status listeners and enqueue guards are registered on it. */
  readonly live: ServerContext
  readonly baseUrl: string
  readonly seed: string
  readonly plans: readonly ProjectPlan[]
  user(username: string): UserRow
  /** The project's current row. */
  project(key: string): ProjectRow
  group(key: string): NamespaceRow
  /** The object name of a planned commit. */
  commitSha(projectKey: string, mark: number): string
  /** Plans a step at a moment of the simulated past. */
  at(t: number, run: () => Promise<void> | void): void
  /** The simulated clock, which a step may move forward while its jobs run. */
  readonly clock: { now(): number; set(t: number): void }
}

interface DemoRunner {
  readonly key: string
  readonly description: string
  readonly info: RunnerInfo
}

const RUNNER_VERSION = { name: 'gitlab-runner', version: '16.11.0', revision: '91a27b2a' } as const

const RUNNERS: Readonly<Record<'shared' | 'macos' | 'deploy' | 'arm', DemoRunner>> = {
  shared: {
    key: 'shared',
    description: 'kestrel-shared-1',
    info: { ...RUNNER_VERSION, platform: 'linux', architecture: 'amd64', executor: 'docker', ip_address: '10.20.0.11' },
  },
  macos: {
    key: 'macos',
    description: 'kestrel-macos-1',
    info: { ...RUNNER_VERSION, platform: 'darwin', architecture: 'arm64', executor: 'shell', ip_address: '10.20.0.31' },
  },
  deploy: {
    key: 'deploy',
    description: 'kestrel-deploy-1',
    info: { ...RUNNER_VERSION, platform: 'linux', architecture: 'amd64', executor: 'docker', ip_address: '10.20.1.5' },
  },
  arm: {
    key: 'arm',
    description: 'tidewater-arm64',
    info: { ...RUNNER_VERSION, platform: 'linux', architecture: 'arm64', executor: 'docker', ip_address: '10.20.2.8' },
  },
}

/** Which runner runs each project's jobs: the platform group's own runner, or the shared one. */
const RUNNER_OF: Readonly<Record<string, keyof typeof RUNNERS>> = {
  api: 'deploy',
  billing: 'deploy',
  app: 'shared',
  oss: 'shared',
}

/** How long each stage's jobs take, in seconds, before some jitter. */
const STAGE_SECONDS: Readonly<Record<string, number>> = { build: 95, test: 170, deploy: 70 }

/** What a job is told to do when it runs: succeed, fail its script, or stay running. */
type Outcome = 'success' | 'failed' | 'running'

/** Plans the operations content of the demo. */
export function planOperations(host: DemoHost, orgStart: number, now: number): void {
  new OperationsPlanner(host, now).plan(orgStart)
}

class OperationsPlanner {
  private readonly rng: Random
  private readonly runnerIds = new Map<string, number>()
  /** The last moment CI steps may use: the one pipeline left running comes after every other. */
  private readonly ciUntil: number

  constructor(
    private readonly host: DemoHost,
    private readonly now: number,
  ) {
    // Its own generator, so the rest of the demo draws the same numbers with or without this part.
    this.rng = new Random(`operations/${host.seed}`)
    this.ciUntil = now - HOUR
  }

  private get db(): ServerContext['db'] {
    return this.host.live.db
  }

  /** A caller acting as `username` from this machine, for the services that take one. */
  private caller(username: string): Caller {
    return callerFor(this.host.live, this.host.user(username), { baseUrl: this.host.baseUrl, ip: '127.0.0.1' })
  }

  private planFor(key: string): ProjectPlan {
    const plan = this.host.plans.find((p) => p.spec.key === key)
    if (!plan) throw new Error(`seed: no plan for project ${key}`)
    return plan
  }

  plan(orgStart: number): void {
    this.planRunners(orgStart)
    this.planNodes(orgStart)
    this.host.at(this.planFor('api').moves[0].at + 3 * DAY, () => {
      // Production deploys of the API: maintainers, and Noor who signs off releases after QA.
      protectEnvironment(this.caller('tomasz'), this.host.project('api'), 'production', [
        { access_level: 40 },
        { user_id: this.host.user('noor').id },
      ])
    })
    for (const key of ['api', 'app', 'billing']) this.planDeployedProject(key)
    this.planLibrary('oss')
    this.planRunningPipeline('api')
    this.planAlerts()
    this.planErrorTracking()
    this.planPagesDomains()
    this.planVulnerabilities()
    this.planStorageMove()
    // The runners that work poll every few seconds: they were in touch just now.
    this.host.at(this.now - 2 * MINUTE, () => {
      for (const key of ['shared', 'deploy'] as const)
        touchRunner(this.db, this.runnerIds.get(key) as number, RUNNERS[key].info)
    })
    // What the hourly maintenance would have done by now: review apps past auto_stop_at are stopped.
    this.host.at(this.now - MINUTE, () => void runEnvironmentMaintenance(this.db, new Date(this.now - MINUTE)))
  }

  // --- runners ---------------------------------------------------------------------------------

  private register(
    runner: DemoRunner,
    by: string,
    token: string,
    options: { tags: string[]; runUntagged: boolean; contact: boolean },
  ): void {
    const registered = registerRunner(this.caller(by), {
      token,
      description: runner.description,
      tagList: options.tags,
      runUntagged: options.runUntagged,
      info: runner.info,
    })
    if (!registered) throw new Error(`seed: runner ${runner.description} was not registered`)
    this.runnerIds.set(runner.key, registered.runner.id)
    if (options.contact) touchRunner(this.db, registered.runner.id, runner.info)
  }

  /** Two instance runners (one paused later), the Kestrel group's runner and a project runner that never came online. */
  private planRunners(orgStart: number): void {
    const live = this.host.live
    this.host.at(orgStart + 2 * DAY, () => {
      this.register(RUNNERS.shared, 'root', instanceRegistrationToken(live), {
        tags: ['docker', 'linux'],
        runUntagged: true,
        contact: true,
      })
      this.register(RUNNERS.macos, 'root', instanceRegistrationToken(live), {
        tags: ['macos', 'xcode'],
        runUntagged: false,
        contact: true,
      })
    })
    this.host.at(orgStart + 2 * DAY + 3 * HOUR, () => {
      const token = runnersToken(live, { kind: 'group', id: this.host.group('kestrel').id })
      this.register(RUNNERS.deploy, 'tomasz', token, { tags: ['docker', 'deploy'], runUntagged: true, contact: true })
    })
    this.host.at(orgStart + 40 * DAY, () => {
      const token = runnersToken(live, { kind: 'project', id: this.host.project('oss').id })
      this.register(RUNNERS.arm, 'jonas', token, { tags: ['arm64'], runUntagged: false, contact: false })
    })
    this.host.at(orgStart + 150 * DAY, () => {
      const runner = findRunnerById(this.db, this.runnerIds.get('macos') as number)
      if (runner)
        updateRunner(this.caller('root'), runner, {
          active: false,
          maintenanceNote: 'Paused while the Mac mini is replaced.',
        })
    })
  }

  // --- pipelines -------------------------------------------------------------------------------

  /** A log as gitlab-runner writes it, up to the job's script and, when it ended, its end. */
  private trace(
    job: JobRow,
    pipeline: PipelineRow,
    runner: DemoRunner,
    outcome: Outcome,
    language: keyof typeof CI_COMMANDS,
    coverage: string,
  ): { head: string; tail: string } {
    const options = jobOptions(job)
    const image = options.image?.name ?? 'alpine:3.19'
    const lines = [
      `Running with gitlab-runner ${RUNNER_VERSION.version} (${RUNNER_VERSION.revision})`,
      `  on ${runner.description} ${this.rng.hex(8)}, system ID: s_${this.rng.hex(12)}`,
      `Preparing the "${runner.info.executor}" executor`,
      `Using Docker executor with image ${image} ...`,
      `Pulling docker image ${image} ...`,
      'Preparing environment',
      `Running on runner-${this.rng.hex(8)}-project-${job.project_id}-concurrent-0 via ${runner.description}...`,
      'Getting source from Git repository',
      'Fetching changes with git depth set to 20...',
      `Checking out ${pipeline.sha.slice(0, 8)} as detached HEAD (ref is ${pipeline.ref})...`,
      'Executing "step_script" stage of the job script',
    ]
    const body: string[] = []
    const script = [...options.before_script, ...options.script]
    for (const [i, command] of script.entries()) {
      body.push(`$ ${command}`)
      const last = i === script.length - 1
      if (/npm ci/.test(command))
        body.push(
          `added ${this.rng.int(380, 620)} packages, and audited ${this.rng.int(390, 640)} packages in ${this.rng.int(6, 19)}s`,
        )
      else if (/pip install/.test(command)) body.push(`Successfully installed ${this.rng.int(24, 60)} packages`)
      else if (last && job.name === 'test' && outcome === 'failed') body.push(...failingTests(language))
      else if (last && job.name === 'test') body.push(...passingTests(language, coverage))
      else if (last && job.name === 'lint')
        body.push(language === 'python' ? 'All checks passed!' : language === 'go' ? '' : '✔ No problems found')
      else if (last && job.stage === 'deploy') body.push(...deployLines(job, options.environment?.url ?? null))
      else if (last && job.name === 'build')
        body.push(
          language === 'python'
            ? 'Successfully built dispatch-0.1.0.tar.gz and dispatch-0.1.0-py3-none-any.whl'
            : 'Build finished in 7.4s',
        )
    }
    const end =
      outcome === 'failed'
        ? ['', 'Cleaning up project directory and file based variables', 'ERROR: Job failed: exit code 1', '']
        : ['', 'Cleaning up project directory and file based variables', 'Job succeeded', '']
    return {
      head: `${lines.join('\n')}\n`,
      tail: `${body.filter((l) => l !== '').join('\n')}\n${outcome === 'running' ? '' : end.join('\n')}`,
    }
  }

  /**
   * Lets `runnerKey` take and run jobs until none is left for it (or `limit` ran), as a runner
   * polling the queue would: each job's log is streamed, the clock moves by the job's duration,
   * and the job ends as `outcomes` says (success by default; `running` leaves it running).
   */
  private async runJobs(
    runnerKey: keyof typeof RUNNERS,
    projectKey: string,
    outcomes: Readonly<Record<string, Outcome>> = {},
    limit = Number.POSITIVE_INFINITY,
  ): Promise<void> {
    const runner = RUNNERS[runnerKey]
    const caller = this.caller('root')
    const language = this.planFor(projectKey).spec.language
    for (let ran = 0; ran < limit; ran += 1) {
      const row = findRunnerById(this.db, this.runnerIds.get(runnerKey) as number)
      if (!row) return
      const assigned = await assignJob(caller, row, runner.info)
      if (!assigned) return
      const job = assigned.job
      const pipeline = findPipelineById(this.db, job.pipeline_id) as PipelineRow
      const outcome = outcomes[job.name] ?? 'success'
      const coverage = (this.rng.int(780, 930) / 10).toFixed(1)
      const log = this.trace(job, pipeline, runner, outcome, language, coverage)
      appendTrace(this.db, job.id, Buffer.from(log.head))
      this.advance((STAGE_SECONDS[job.stage] ?? 60) + this.rng.int(0, 40))
      appendTrace(this.db, job.id, Buffer.from(log.tail))
      if (outcome === 'running') return
      await finishJob(
        caller,
        job,
        outcome === 'failed'
          ? { state: 'failed', failureReason: 'script_failure', exitCode: 1 }
          : { state: 'success', exitCode: 0 },
      )
      this.advance(this.rng.int(3, 12))
    }
  }

  private advance(seconds: number): void {
    this.host.clock.set(this.host.clock.now() + seconds * SECOND)
  }

  /**
   * Runs `work` at `t` with the clock moving while jobs run, then puts the clock back: the rest of
   * the company kept working while the pipeline ran.
   */
  private ci(t: number, work: () => Promise<void>): void {
    if (t > this.ciUntil) return
    this.host.at(t, async () => {
      const start = this.host.clock.now()
      await work()
      this.host.clock.set(start)
    })
  }

  private async pipeline(
    projectKey: string,
    ref: string,
    sha: string,
    by: string,
    options: { tag?: boolean; source?: string } = {},
  ): Promise<PipelineRow> {
    const project = this.host.project(projectKey)
    const caller = this.caller(by)
    const result = await createPipeline(this.host.live, {
      project,
      ref,
      tag: options.tag ?? false,
      sha,
      source: options.source ?? 'push',
      user: this.host.user(by),
      changedPaths: null,
      honourSkipCi: options.source === undefined,
      saveOnErrors: options.source === undefined,
      baseUrl: this.host.baseUrl,
      caller,
    })
    if (!('pipeline' in result))
      throw new Error(`seed: no pipeline for ${projectKey} ${ref}: ${result.errors.join(', ')}`)
    return result.pipeline
  }

  private job(pipelineId: number, name: string): JobRow {
    const job = latestJobs(pipelineJobs(this.db, pipelineId)).find((j) => j.name === name)
    if (!job) throw new Error(`seed: pipeline ${pipelineId} has no job ${name}`)
    return job
  }

  /** The pushes of a branch, oldest first, before `until`. */
  private branchPushes(plan: ProjectPlan, branch: string, until = Number.POSITIVE_INFINITY): RefMove[] {
    return plan.moves
      .filter((m) => m.ref === `refs/heads/${branch}` && m.mark !== null && m.at < until)
      .sort((a, b) => a.at - b.at)
  }

  /**
   * Pipelines of a deployed project: its newest open merge requests (one whose tests fail, one
   * whose first pipeline was cancelled by a newer push), its latest merged ones (review app
   * deployed, merge commit deployed to staging, review app stopped), and its last two releases
   * (production deployed by hand; the API's production is protected).
   */
  private planDeployedProject(key: string): void {
    const plan = this.planFor(key)
    const runner = RUNNER_OF[key]
    // The most recently pushed open merge requests: their review apps are the ones still up.
    const candidates = plan.mergeRequests
      .filter((mr) => mr.state === 'opened')
      .map((mr) => ({ mr, pushes: this.branchPushes(plan, mr.branch, this.ciUntil) }))
      .filter((o) => o.pushes.length > 0)
      .sort((a, b) => b.pushes[b.pushes.length - 1].at - a.pushes[a.pushes.length - 1].at || a.mr.iid - b.mr.iid)
    const open = candidates.slice(0, key === 'billing' ? 1 : key === 'app' ? 2 : 3)
    // One merge request pushed twice, whose first pipeline the author cancelled (the API's).
    const twice = (o: (typeof candidates)[number]): boolean => o.pushes.length > 1
    if (key === 'api' && !open.some(twice)) {
      const extra = candidates.find((o) => o.pushes.length > 1 && !open.includes(o))
      if (extra) open.push(extra)
    }
    const superseded = key === 'api' ? open.findIndex(twice) : -1
    open.forEach(({ mr, pushes }, i) => {
      const last = pushes[pushes.length - 1]
      const earlier = pushes.length > 1 ? pushes[pushes.length - 2] : null
      if (earlier && i === superseded) {
        // Superseded: the author cancels the pipeline of the previous push when pushing again.
        this.ci(earlier.at + MINUTE, async () => {
          const p = await this.pipeline(key, mr.branch, this.host.commitSha(key, earlier.mark as number), earlier.user)
          await this.runJobs(runner, key, {}, 1)
          await cancelPipeline(this.host.live, findPipelineById(this.db, p.id) as PipelineRow, this.caller(mr.author))
        })
      }
      this.ci(last.at + MINUTE, async () => {
        await this.pipeline(key, mr.branch, this.host.commitSha(key, last.mark as number), last.user)
        await this.runJobs(runner, key, i === 1 ? { test: 'failed' } : {})
      })
    })

    const merged = plan.mergeRequests
      .filter(
        (mr): mr is MergeRequestPlan & { end: { at: number; by: string; mergeMark: number } } =>
          mr.state === 'merged' && mr.end !== null && mr.end.mergeMark !== null && mr.end.at + HOUR < this.ciUntil,
      )
      .sort((a, b) => a.end.at - b.end.at)
      .slice(key === 'api' ? -2 : -1)
    merged.forEach((mr, i) => {
      const pushes = this.branchPushes(plan, mr.branch, mr.end.at)
      const last = pushes[pushes.length - 1]
      if (last) {
        this.ci(last.at + MINUTE, async () => {
          await this.pipeline(key, mr.branch, this.host.commitSha(key, last.mark as number), last.user)
          await this.runJobs(runner, key)
        })
      }
      const flaky = key === 'api' && i === 0
      this.ci(mr.end.at + MINUTE, async () => {
        const p = await this.pipeline(key, 'main', this.host.commitSha(key, mr.end.mergeMark), mr.end.by)
        await this.runJobs(runner, key, flaky ? { test: 'failed' } : {})
        if (!flaky) return
        // A flaky test: the engineering manager retries it and the deployment to staging follows.
        this.advance(14 * 60)
        await retryJob(this.host.live, this.job(p.id, 'test'), this.host.user('amara'), this.caller('amara'))
        await this.runJobs(runner, key)
      })
      if (!last) return
      this.ci(mr.end.at + 6 * MINUTE, async () => {
        const env = findEnvironmentByName(this.db, this.host.project(key).id, `review/${ciSlug(mr.branch)}`)
        if (!env) return
        await stopEnvironment(this.caller(mr.end.by), this.host.project(key), env)
        await this.runJobs(runner, key)
      })
    })

    const tags = plan.moves.filter((m) => m.tag !== null && m.at < this.ciUntil - 2 * HOUR).slice(-2)
    tags.forEach((move, i) => {
      const tag = move.tag as string
      // Production goes out by hand: both API releases, the latest Billing one, and the older Field
      // App one (its latest release waits for Tomasz).
      const deploy = key === 'api' || (key === 'billing' && i === tags.length - 1) || (key === 'app' && i === 0)
      this.ci(move.at + MINUTE, async () => {
        const sha = await this.commitOf(key, `refs/tags/${tag}`)
        const p = await this.pipeline(key, tag, sha, move.user, { tag: true })
        await this.runJobs(runner, key)
        if (!deploy) return
        this.advance(35 * 60)
        await playJob(this.host.live, this.job(p.id, 'production'), this.host.user('tomasz'), this.caller('tomasz'))
        await this.runJobs(runner, key)
      })
    })
  }

  /** The commit a ref points at now (a tag's commit, not the tag object). */
  private async commitOf(key: string, ref: string): Promise<string> {
    const sha = await resolveCommit(projectGitDir(this.host.live, this.host.project(key)), ref)
    if (!sha) throw new Error(`seed: ${ref} of ${key} is missing`)
    return sha
  }

  /** The library's pipelines: its latest push to main and its latest release, tests only. */
  private planLibrary(key: string): void {
    const plan = this.planFor(key)
    const main = plan.moves
      .filter((m) => m.ref === 'refs/heads/main' && m.mark !== null && m.at < this.ciUntil)
      .slice(-1)[0]
    if (main) {
      this.ci(main.at + MINUTE, async () => {
        await this.pipeline(key, 'main', this.host.commitSha(key, main.mark as number), main.user)
        await this.runJobs(RUNNER_OF[key], key)
      })
    }
    const tag = plan.moves.filter((m) => m.tag !== null && m.at < this.ciUntil).slice(-1)[0]
    if (tag) {
      this.ci(tag.at + MINUTE, async () => {
        await this.pipeline(
          key,
          tag.tag as string,
          await this.commitOf(key, `refs/tags/${tag.tag as string}`),
          tag.user,
          { tag: true },
        )
        await this.runJobs(RUNNER_OF[key], key)
      })
    }
  }

  /** A pipeline Tomasz started from the web a few minutes ago, still running: lint runs, tests wait. */
  private planRunningPipeline(key: string): void {
    this.host.at(this.now - 25 * MINUTE, async () => {
      const start = this.host.clock.now()
      await this.pipeline(key, 'main', await this.commitOf(key, 'refs/heads/main'), 'tomasz', { source: 'web' })
      await this.runJobs(RUNNER_OF[key], key, { lint: 'running' })
      this.host.clock.set(start)
    })
  }

  // --- operations ------------------------------------------------------------------------------

  /** An HTTP alert integration on the API with alerts in every state. */
  private planAlerts(): void {
    const now = this.now
    let integrationId = 0
    const project = (): ProjectRow => this.host.project('api')
    this.host.at(now - 40 * DAY, () => {
      const result = createHttpIntegration(this.caller('tomasz'), project(), {
        name: 'Prometheus (production)',
        active: true,
      })
      if (!result.integration) throw new Error(`seed: alert integration refused: ${result.errors.join(', ')}`)
      integrationId = result.integration.id
    })
    const send = (at: number, payload: Readonly<Record<string, unknown>>): void => {
      this.host.at(at, () => {
        const integration = findHttpIntegration(this.db, integrationId)
        if (!integration) throw new Error('seed: the alert integration is missing')
        receiveAlertPayload(this.host.live, project(), integration, {
          monitoring_tool: 'Prometheus',
          gitlab_environment_name: 'production',
          start_time: new Date(at).toISOString(),
          ...payload,
        })
      })
    }
    const alert = (iid: number): AlertRow => findAlertByIid(this.db, project().id, iid) as AlertRow
    // Resolved by the monitoring tool once replication caught up.
    send(now - 5 * DAY - 2 * HOUR, {
      title: 'Postgres replication lag above 30s',
      severity: 'high',
      service: 'postgres',
      hosts: ['db-2'],
      fingerprint: 'pg-replication-lag',
      description: 'Replica db-2 is 48s behind the primary.',
    })
    send(now - 5 * DAY, {
      title: 'Postgres replication lag above 30s',
      fingerprint: 'pg-replication-lag',
      end_time: new Date(now - 5 * DAY).toISOString(),
    })
    // Acknowledged and owned by the SRE on call.
    send(now - 26 * HOUR, {
      title: 'Webhook delivery queue backlog',
      severity: 'medium',
      service: 'webhooks',
      hosts: ['worker-1', 'worker-2'],
      fingerprint: 'webhook-backlog',
      description: '12,400 deliveries waiting for more than 10 minutes.',
    })
    this.host.at(now - 25 * HOUR, () => {
      const caller = this.caller('tomasz')
      updateAlertStatus(caller, alert(2), 'acknowledged')
      setAlertAssignees(caller, project(), alert(2), [this.host.user('tomasz')], 'REPLACE')
    })
    // Firing again and again: one alert counting its events.
    for (const hours of [6, 4, 2])
      send(now - hours * HOUR, {
        title: 'Disk usage above 85% on db-1',
        severity: 'low',
        service: 'postgres',
        hosts: ['db-1'],
        fingerprint: 'disk-db-1',
      })
    // Just fired: assigned to root, whose to-do list shows it.
    send(now - 50 * MINUTE, {
      title: 'High error rate on POST /v1/jobs',
      severity: 'critical',
      service: 'dispatch-api',
      hosts: ['api-3'],
      fingerprint: 'api-5xx-jobs',
      description: '5xx responses at 7.2% over the last 5 minutes.',
    })
    this.host.at(now - 40 * MINUTE, () => {
      setAlertAssignees(this.caller('tomasz'), project(), alert(4), [this.host.user('root')], 'REPLACE')
    })
  }

  /** The Field App reports its errors to the integrated error tracking, with one client key. */
  private planErrorTracking(): void {
    const start = this.planFor('app').moves[0].at
    this.host.at(start + 30 * DAY, () => {
      const caller = this.caller('amara')
      updateErrorTrackingSetting(caller, this.host.project('app'), true, true)
      createClientKey(caller, this.host.project('app'))
    })
  }

  /** The website's Pages domains: www with a self-signed certificate, and the bare domain over HTTP. */
  private planPagesDomains(): void {
    const at = this.planFor('website').moves[0].at + 20 * DAY
    this.host.at(at, () => {
      const caller = this.caller('hana')
      const cert = demoCertificate(
        this.host.seed,
        'www.kestrel.example',
        'Kestrel',
        new Date(at - DAY),
        new Date(at + 365 * DAY),
      )
      createPagesDomain(caller, this.host.project('website'), {
        domain: 'www.kestrel.example',
        certificate: cert.certificate,
        key: cert.key,
        auto_ssl_enabled: false,
      })
      createPagesDomain(caller, this.host.project('website'), { domain: 'kestrel.example' })
    })
  }

  /**
   * The API's security findings (GitLab's sample SAST and dependency scanning reports), two of them
   * turned into vulnerabilities, the vulnerable lodash one confirmed.
   */
  private planVulnerabilities(): void {
    const now = this.now
    const project = (): ProjectRow => this.host.project('api')
    this.host.at(now - 14 * DAY, () => void seedSecurityFindings(this.db, project().id))
    const ids: number[] = []
    this.host.at(now - 13 * DAY, () => {
      const findings = listFindings(this.db, { projectId: project().id }, 100, 0).rows
      for (const name of [
        'Prototype Pollution in lodash',
        'Improper neutralization of special elements used in an SQL command',
      ]) {
        const finding = findings.find((f) => f.name === name)
        if (finding) ids.push(createVulnerabilityFromFinding(this.caller('priya'), project(), finding.id).id)
      }
    })
    this.host.at(now - 12 * DAY, () => {
      const lodash = findVulnerability(this.db, ids[0])
      if (lodash)
        transitionVulnerability(
          this.caller('tomasz'),
          project(),
          lodash,
          'confirm',
          'Reachable through the customer import; upgrade planned.',
        )
    })
  }

  /** Replication: this instance as the primary, and a secondary in the EU replicating the Kestrel group. */
  private planNodes(orgStart: number): void {
    this.host.at(orgStart + 5 * DAY, () => {
      const live = this.host.live
      // The node name has to be this instance's: npm start picks a new port every launch.
      if (live.settings.get('geo_node_name').trim() === '') live.settings.update({ geo_node_name: 'kestrel-primary' })
      const root = this.caller('root')
      createGeoNode(root, { name: live.settings.get('geo_node_name'), url: `${this.host.baseUrl}/`, primary: true })
      createGeoNode(root, {
        name: 'kestrel-eu',
        url: 'https://eu.git.kestrel.example/',
        internal_url: 'https://eu-internal.git.kestrel.example/',
        selective_sync_type: 'namespaces',
        selective_sync_namespace_ids: [this.host.group('kestrel').id],
        repos_max_capacity: 40,
      })
    })
  }

  /** With a second storage configured, jonas's dotfiles were moved there three days ago. */
  private planStorageMove(): void {
    const live = this.host.live
    if (live.storages.length < 2) return
    this.host.at(this.now - 3 * DAY, async () => {
      scheduleProjectMove(this.caller('root'), this.host.project('dotfiles'), live.storages[1])
      await storageMovesIdle(live)
    })
  }
}

function passingTests(language: string, coverage: string): string[] {
  if (language === 'python')
    return [
      '.........................................................        [100%]',
      `Lines        : ${coverage}%`,
      '57 passed in 4.81s',
    ]
  if (language === 'go')
    return ['ok  \texample.com/kestrel/tidewater\t1.204s\tcoverage: 91.3% of statements', `Lines        : ${coverage}%`]
  return [
    ' Test Files  38 passed (38)',
    '      Tests  412 passed (412)',
    `Lines        : ${coverage}% ( ${Math.round(Number(coverage) * 16)}/1600 )`,
  ]
}

function failingTests(language: string): string[] {
  if (language === 'python')
    return [
      'FAILED tests/test_invoices.py::test_totals_round_half_even - AssertionError: 10.05 != 10.04',
      '1 failed, 56 passed in 4.92s',
    ]
  return [
    " FAIL  src/schedules.test.ts > schedules > keeps a technician's breaks free",
    'AssertionError: expected [ 2 items ] to have a length of 3',
    ' Test Files  1 failed | 37 passed (38)',
    '      Tests  1 failed | 411 passed (412)',
  ]
}

function deployLines(job: JobRow, url: string | null): string[] {
  if (jobOptions(job).environment?.action === 'stop')
    return [`Stopping ${job.environment ?? 'environment'}...`, 'Released the review app.']
  return [
    `Deploying to ${job.environment ?? 'environment'}...`,
    'Rolled out 3/3 replicas.',
    ...(url ? [`Available at ${url}`] : []),
  ]
}
