export type { AwardableType, AwardEmojiRow } from './queries'
export { addAward, toggleAward, presentAwards, type Awardable } from './service'
export { awardEmojiEntity } from './entity'
export { awardEmojiRoutes } from './routes'
