/** Epics as the epic side of issues (issues/extensions.ts), which modules/index.ts registers at startup. */
import type { IssueEpics } from '../issues'
import { carryEpic, issueEpicFields, issueEpicParam, setIssueEpic } from './service'

/** The epic an issue shows, takes through `epic_id`/`epic_iid` and keeps when moved or cloned. */
export const issueEpicsSide: IssueEpics = {
  fields: issueEpicFields,
  param: issueEpicParam,
  set: setIssueEpic,
  carry: carryEpic,
}
