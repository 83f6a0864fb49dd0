/** The to-dos module's public face: what other modules record and resolve. */
export { resolveTodosForTarget } from './queries'
