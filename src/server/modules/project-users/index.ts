/** The project users module's public face: its service, for anything else that lists a project's team. */
export { projectUsers, type ProjectUsersFilter } from './service'
