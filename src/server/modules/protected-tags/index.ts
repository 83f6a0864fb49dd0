/** The protected tags module's public face: the checks the tags API and git push make. */
export { assertMayCreateTag, assertMayDeleteTag, protectedTagPushPolicy, TAG_MESSAGES } from './service'
