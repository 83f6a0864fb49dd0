export { BURROW_VERSION } from './entity'
