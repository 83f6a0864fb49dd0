export { reposHandlers } from './channels'
export { RepoError, type RepoErrorCode } from './errors'
export { RepoService, accountDirName, type RepoAccounts, type RepoServiceOptions } from './service'
