export { humanDuration, parseHumanDuration } from './durations'
export { timeStatsOf, type TimeStats } from './entity'
export { addSpentTime, resetSpentTime, resetTimeEstimate, setTimeEstimate, timeStats, type Trackable } from './service'
export { timeTrackingRoutes, type TrackableResolver } from './routes'
