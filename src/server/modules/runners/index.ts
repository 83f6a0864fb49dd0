// The runners module's public face: runners, their tokens and who may see them, for the CI job cycle.
export { runnerInfo, RunnerInfoParam } from './params'
export { canReadRunner } from './policy'
export { findRunnerById, runnersByIds, runnerTags, touchRunner, type RunnerInfo, type RunnerRow } from './queries'
export { runnerEntity } from './entity'
export {
  authenticateRunner,
  instanceRegistrationToken,
  loadRunner,
  registerRunner,
  runnersToken,
  updateRunner,
} from './service'
