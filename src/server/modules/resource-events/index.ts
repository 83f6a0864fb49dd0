/**
 * The resource events module's public face for other modules: what a moved or cloned issue carries
 * over, and the state, label and milestone events and system-note metadata that system notes record.
 */
export {
  copyIssueResourceEvents,
  copySystemNoteMetadata,
  crossReferenceExists,
  insertLabelEvent,
  insertMilestoneEvent,
  insertStateEvent,
  insertSystemNoteMetadata,
  systemNoteMetadataOf,
  type ResourceRef,
  type ResourceState,
  type StateSource,
} from './queries'
