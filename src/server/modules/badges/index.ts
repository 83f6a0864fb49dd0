/** The badges module's public face: nothing yet beyond its routes, which modules/index.ts registers. */
export type { BadgeSource } from './service'
