import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { AcceptedMessage } from '../../../shared/api/common'
import { PipelineBasic } from '../../../shared/api/pipeline'
import {
  PipelineSchedule,
  PipelineScheduleDetails,
  PipelineScheduleVariable,
} from '../../../shared/api/pipeline-schedule'
import { callerOf } from '../../platform/caller'
import { pageOf, paginateArray, setPageHeaders } from '../../platform/http/pagination'
import { currentUser, loadProject } from '../../platform/http/resolve'
import type { ProjectRow } from '../../platform/db/rows'
import type { ScheduleRow } from './queries'
import { startScheduler } from './scheduler'
import {
  addScheduleVariable,
  createSchedule,
  editSchedule,
  editScheduleVariable,
  listProjectSchedules,
  loadSchedule,
  pipelinesOfSchedule,
  playSchedule,
  removeSchedule,
  removeScheduleVariable,
  scheduleDetails,
  takeOwnership,
  type ScheduleInput,
} from './service'

const ProjectParams = Type.Object({ id: Type.String() })
const ScheduleParams = Type.Object({ id: Type.String(), pipeline_schedule_id: Type.Integer() })
const VariableParams = Type.Object({ id: Type.String(), pipeline_schedule_id: Type.Integer(), key: Type.String() })
const PageQuery = { page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) }
const ListQuery = Type.Object({ scope: Type.Optional(Type.Enum(['active', 'inactive'])), ...PageQuery })

const ScheduleFields = {
  description: Type.String(),
  ref: Type.String(),
  cron: Type.String(),
  cron_timezone: Type.Optional(Type.String()),
  active: Type.Optional(Type.Boolean()),
}
const CreateBody = Type.Object(ScheduleFields)
const UpdateBody = Type.Partial(Type.Object(ScheduleFields))
const VariableType = Type.Optional(Type.Enum(['env_var', 'file']))
const VariableBody = Type.Object({ key: Type.String(), value: Type.String(), variable_type: VariableType })
const VariableUpdateBody = Type.Object({ value: Type.Optional(Type.String()), variable_type: VariableType })

function scheduleInput(body: {
  readonly description?: string
  readonly ref?: string
  readonly cron?: string
  readonly cron_timezone?: string
  readonly active?: boolean
}): ScheduleInput {
  return {
    description: body.description,
    ref: body.ref,
    cron: body.cron,
    cronTimezone: body.cron_timezone,
    active: body.active,
  }
}

/** The project of a schedules endpoint (404 when hidden); every call authenticates first, as GitLab's. */
function schedulesProject(request: FastifyRequest, id: string): ProjectRow {
  currentUser(request)
  return loadProject(request, id)
}

/** The project and the schedule a path names (404 for either, 403 when schedules are not readable). */
function scheduleOf(
  request: FastifyRequest,
  params: { readonly id: string; readonly pipeline_schedule_id: number },
): { readonly project: ProjectRow; readonly schedule: ScheduleRow } {
  const project = schedulesProject(request, params.id)
  return { project, schedule: loadSchedule(callerOf(request), project, params.pipeline_schedule_id) }
}

/**
 * The Pipeline schedules API: a project's schedules, their variables and pipelines, run now and
 * take ownership. Starts the scheduler that runs due schedules, stopped when the server closes.
 */
const pipelineSchedules: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onClose', startScheduler(app.burrow))

  app.get(
    '/projects/:id/pipeline_schedules',
    { schema: { params: ProjectParams, querystring: ListQuery, response: { 200: Type.Array(PipelineSchedule) } } },
    async (request, reply) => {
      const project = schedulesProject(request, request.params.id)
      const scope = request.query.scope
      const schedules = listProjectSchedules(
        callerOf(request),
        project,
        scope === undefined ? undefined : scope === 'active',
      )
      return paginateArray(request, reply, app.burrow.baseUrl(request), schedules)
    },
  )

  app.get(
    '/projects/:id/pipeline_schedules/:pipeline_schedule_id',
    { schema: { params: ScheduleParams, response: { 200: PipelineScheduleDetails } } },
    async (request) => {
      const { schedule } = scheduleOf(request, request.params)
      return scheduleDetails(callerOf(request), schedule)
    },
  )

  app.get(
    '/projects/:id/pipeline_schedules/:pipeline_schedule_id/pipelines',
    {
      schema: {
        params: ScheduleParams,
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(PipelineBasic) },
      },
    },
    async (request, reply) => {
      const { schedule } = scheduleOf(request, request.params)
      const page = pageOf(request.query)
      const { pipelines, total } = pipelinesOfSchedule(callerOf(request), schedule, page)
      setPageHeaders(request, reply, app.burrow.baseUrl(request), page, total)
      return pipelines
    },
  )

  app.post(
    '/projects/:id/pipeline_schedules',
    { schema: { params: ProjectParams, body: CreateBody, response: { 201: PipelineScheduleDetails } } },
    async (request, reply) => {
      const project = schedulesProject(request, request.params.id)
      const created = await createSchedule(callerOf(request), project, scheduleInput(request.body))
      return reply.code(201).send(created)
    },
  )

  app.put(
    '/projects/:id/pipeline_schedules/:pipeline_schedule_id',
    { schema: { params: ScheduleParams, body: UpdateBody, response: { 200: PipelineScheduleDetails } } },
    async (request) => {
      const { project, schedule } = scheduleOf(request, request.params)
      return editSchedule(callerOf(request), project, schedule, scheduleInput(request.body))
    },
  )

  app.post(
    '/projects/:id/pipeline_schedules/:pipeline_schedule_id/take_ownership',
    { schema: { params: ScheduleParams, response: { 201: PipelineScheduleDetails } } },
    async (request, reply) => {
      const { project, schedule } = scheduleOf(request, request.params)
      return reply.code(201).send(takeOwnership(callerOf(request), project, schedule))
    },
  )

  app.delete(
    '/projects/:id/pipeline_schedules/:pipeline_schedule_id',
    { schema: { params: ScheduleParams } },
    async (request, reply) => {
      const { project, schedule } = scheduleOf(request, request.params)
      removeSchedule(callerOf(request), project, schedule)
      return reply.code(204).send()
    },
  )

  app.post(
    '/projects/:id/pipeline_schedules/:pipeline_schedule_id/play',
    { schema: { params: ScheduleParams, response: { 201: AcceptedMessage } } },
    async (request, reply) => {
      const { project, schedule } = scheduleOf(request, request.params)
      await playSchedule(callerOf(request), project, schedule)
      return reply.code(201).send({ message: '201 Created' })
    },
  )

  app.post(
    '/projects/:id/pipeline_schedules/:pipeline_schedule_id/variables',
    { schema: { params: ScheduleParams, body: VariableBody, response: { 201: PipelineScheduleVariable } } },
    async (request, reply) => {
      const { project, schedule } = scheduleOf(request, request.params)
      const { key, value, variable_type: type } = request.body
      const variable = addScheduleVariable(callerOf(request), project, schedule, {
        key,
        value,
        variable_type: type ?? 'env_var',
      })
      return reply.code(201).send(variable)
    },
  )

  app.put(
    '/projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key',
    { schema: { params: VariableParams, body: VariableUpdateBody, response: { 200: PipelineScheduleVariable } } },
    async (request) => {
      const { project, schedule } = scheduleOf(request, request.params)
      return editScheduleVariable(callerOf(request), project, schedule, request.params.key, request.body)
    },
  )

  app.delete(
    '/projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key',
    { schema: { params: VariableParams, response: { 202: PipelineScheduleVariable } } },
    async (request, reply) => {
      const { project, schedule } = scheduleOf(request, request.params)
      return reply.code(202).send(removeScheduleVariable(callerOf(request), project, schedule, request.params.key))
    },
  )
}

export default pipelineSchedules
