// The forks module's public face: whether two projects share a fork network (merge requests
// between them), and a project's upstream.
export { findForkMember, inSameForkNetwork, type ForkMemberRow } from './queries'
