export { addProjectMemberIfAbsent, insertMember, listEffectiveMembers } from './queries'
export {
  addMember,
  assertCanAssign,
  groupSource,
  projectSource,
  pruneExpiredMembers,
  sourceOfRow,
  type MemberSource,
} from './service'
