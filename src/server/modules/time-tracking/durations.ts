// GitLab's time-tracking durations; the grammar is shared with the app (its time fields parse what the server will).
export { humanDuration, parseDuration as parseHumanDuration } from '../../../shared/duration'
