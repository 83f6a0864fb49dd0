export {
  findOAuthTokenByDigest,
  findPersonalTokenByDigest,
  insertPersonalToken,
  touchPersonalToken,
  type NewPersonalToken,
} from './queries'
export { ensureRootUser, ROOT_TOKEN_NAME } from './bootstrap'
