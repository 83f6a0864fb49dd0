export {
  deleteUser,
  findUserByEmail,
  findUserById,
  findUserByIdOrUsername,
  findUserByUsername,
  insertUser,
  listUsers,
  recordFailedSignIn,
  recordSignIn,
  unlockUser,
  updateUser,
  userNamespaceId,
  usersByIds,
  type NewUser,
} from './queries'
export {
  USER_REF_COLUMNS,
  avatarUrl,
  userPublic,
  userRef,
  userRefOrNull,
  userWebUrl,
  type UserRef,
  type UserRefRow,
} from './entity'
export { createUser, type UserAttributes } from './service'
