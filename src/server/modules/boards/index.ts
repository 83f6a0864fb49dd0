/** The boards module's public face: what other modules may use (nothing yet beyond its routes). */
export { canReadBoards } from './policy'
