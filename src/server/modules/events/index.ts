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
