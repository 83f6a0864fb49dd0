export {
  onEventRecorded,
  pruneOldEvents,
  recordEvent,
  type EventListener,
  type EventAction,
  type EventTargetType,
  type NewEvent,
  type PushData,
} from './service'
export { recordPushEvents } from './push-events'
export { NOTE_EVENT_TARGET_TYPES } from './queries'
