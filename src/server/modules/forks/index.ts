// The forks module's public face: whether two projects share a fork network (merge requests
// between them), a project's upstream, and the unlink registry the merge requests module fills.
export { findForkMember, inSameForkNetwork, type ForkMemberRow } from './queries'
export { onForkUnlinked, type ForkUnlinkListener } from './unlinked'
export { unlinkFork } from './service'
