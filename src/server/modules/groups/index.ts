export { createGroup, type CreateGroupInput } from './service'
