// The pipelines module's public face: pipelines and jobs, what other modules follow of them
// (ci-events), the CI configuration and variables a lint or a runner sees.
export {
  onArtifactStored,
  onJobEnqueue,
  onJobStatus,
  onPipelineStatus,
  provideDeploymentTargets,
  type ArtifactStoredEvent,
  type DeploymentTargets,
  type JobEnqueueEvent,
  type JobStatusEvent,
  type PipelineStatusEvent,
} from './ci-events'
export { readJobArtifact } from './artifacts'
export {
  ciConfigPath,
  ciSlug,
  includeSource,
  isProtectedRef,
  predefinedVariables,
  projectVariablesFor,
} from './ci-context'
export { loadCiConfig, type CiJob, type IncludeRecord, type RefPolicy } from './config/config'
export { parseCiDuration } from './config/duration'
export { assignJob, finishJob, runningJobProjectId } from './jobs'
export { canReadBuilds } from './policy'
export { jobEntitiesById, presentPipeline, presentPipelines } from './present'
export {
  appendTrace,
  findJobById,
  findPipelineById,
  insertPipeline,
  latestPipelineFor,
  pipelineJobs,
  type CiStatus,
  type JobRow,
  type PipelineRow,
} from './queries'
export {
  cancelPipeline,
  createPipeline,
  createPipelinesOnPush,
  jobOptions,
  jobPlayable,
  latestJobs,
  planPipeline,
  playJob,
  processPipeline,
  retryJob,
} from './service'
