/**
 * The quick actions module's public face: the parser, and the commands every noteable family
 * shares, from which the issue, merge request and epic modules build their own quick action sets.
 */
export {
  ADMIN_COMMANDS,
  EPIC_ONLY,
  groupChain,
  issuableCommand,
  itemCommand,
  labelIdsNamed,
  MERGE_REQUEST_ONLY,
  parseDueDate,
  personalCommandAvailable,
  quickActionSet,
  referencedIssuable,
  userListCommand,
  type IssuableCommands,
  type ItemCommands,
  type ParsedQuickActions,
  type QuickAction,
  type QuickActionFollowUp,
  type QuickActionName,
  type QuickActionParams,
  type QuickActionResult,
} from './service'
