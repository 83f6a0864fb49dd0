export { insertMember } from './queries'
