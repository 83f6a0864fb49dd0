/**
 * The environments module's public face: environment lookups for alerts and GraphQL, and the
 * deployment → merge request links that merge requests refresh before listing their deployments.
 */
export { findEnvironment, findEnvironmentByName } from './queries'
export { linkDeployedMergeRequests } from './deployment-merge-requests'
