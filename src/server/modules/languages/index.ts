/** The languages module's public face: a repository's languages breakdown. */
export { repositoryLanguages } from './service'
