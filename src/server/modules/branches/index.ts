// The branches module's public face: protected-branch rules and the checks other modules make with them.
export { listProtectedBranches, grantHolderNames, type AccessNames, type ProtectedBranch } from './protected-queries'
export {
  canPushToBranch,
  hasAccess,
  protectDefaultBranch,
  protectedBranchPushPolicy,
  refusal,
  ruleMatches,
  rulesFor,
  writeForcePushRules,
} from './protected-service'
