export { addProjectMemberIfAbsent, insertMember, listEffectiveMembers, type SourceRef } from './queries'
export {
  addMember,
  assertCanAssign,
  callerLevel,
  groupSource,
  projectSource,
  pruneExpiredMembers,
  sourceOfRow,
  type MemberSource,
} from './service'
