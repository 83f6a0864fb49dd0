/**
 * Texts of the demo content: issue and merge request titles and Markdown descriptions (task
 * lists, code blocks, tables, references), comments, review remarks and replies.
 */
import type { Random } from './random'
import type { Domain } from './world'

export type IssueKind = 'bug' | 'feature' | 'chore' | 'docs'

export interface IssueText {
  readonly kind: IssueKind
  readonly title: string
  readonly description: string
  /** Component the issue is about (for comments). */
  readonly component: string
}

/** Bug symptoms, each with the behaviour the reporter expected instead. */
const SYMPTOMS: readonly (readonly [string, string])[] = [
  ['returns 500 when the request has no region', 'The request fails with a 400 that says the region is missing.'],
  ['shows times in UTC instead of the account time zone', 'Times are shown in the account time zone.'],
  [
    'times out for accounts with more than 5,000 records',
    'The page loads within a couple of seconds whatever the account size.',
  ],
  ['drops the last item of every page', 'Every item shows up exactly once across the pages.'],
  ['accepts an empty name', 'Saving is refused with "Name can\'t be blank".'],
  ['got slow after the last release', 'It is as fast as in the release before.'],
  ['sends duplicate notifications', 'Each change sends one notification.'],
  ['crashes on names with emoji', 'Names with emoji are stored and shown as typed.'],
  ['ignores the sort order', 'The list follows the sort order picked in the header.'],
  ['loses unsaved changes when the connection drops', 'Changes are kept locally and sent once the connection is back.'],
  ['shows a blank screen on first load', 'The first screen shows a loading state, then the data.'],
  ['writes the access token to the log', 'Tokens never appear in logs.'],
  ['rounds amounts the wrong way', 'Amounts are rounded half-even to the cent, as the invoices are.'],
  ['double-counts cancelled items', 'Cancelled items are left out of the totals.'],
  ['breaks when daylight saving time starts', 'Visits keep their local time across the change.'],
  ['does not retry after a 503', 'It retries with backoff, up to three times.'],
  ['fails silently for uploads over 10 MB', 'Large uploads either succeed or show an error that says the limit.'],
  ['uses the wrong locale for dates', 'Dates follow the language chosen in the profile.'],
  ['keeps stale data after logout', 'Logging out clears everything cached for the account.'],
  ['has a flaky test on CI', 'The test passes on every run.'],
  ['rejects valid postcodes from Ireland', 'Eircodes are accepted.'],
  ['leaks a database connection on cancel', 'A cancelled request gives its connection back to the pool.'],
]

const FEATURES = [
  'Add CSV export to {c}',
  'Support filtering {c} by region',
  'Allow bulk editing in {c}',
  'Show progress while {c} is working',
  'Make {c} configurable per account',
  'Record {c} changes in the audit log',
  'Paginate {c} with keyset cursors',
  'Add keyboard shortcuts to {c}',
  'Expose {c} metrics to Prometheus',
  'Let admins turn off {c} per team',
  'Show the last sync time in {c}',
  'Remember the last filter in {c}',
]

const CHORES = [
  'Upgrade the runtime to the current LTS',
  'Remove the deprecated v1 code path of {c}',
  'Split {c} into smaller modules',
  'Add integration tests for {c}',
  'Clean up old feature flags around {c}',
  'Replace hand-written retries in {c} with the shared helper',
  'Reduce log noise from {c}',
]

const DOCS = [
  'Document how {c} handles time zones',
  'Explain {c} configuration in the README',
  'Add a troubleshooting section for {c}',
  'Fix broken links in the {c} docs',
]

const PERSONAS = [
  'A dispatcher',
  'A technician on site',
  'An account admin',
  'Our support team',
  'A customer with several regions',
  'The finance team',
]

const REASONS = [
  'they plan the next day every evening and this takes too long',
  'they cannot tell which records changed since yesterday',
  'the current workaround is a spreadsheet that goes out of date',
  'they need it for their monthly report',
  'it is the most requested item on the customer board',
]

const ERRORS = [
  "TypeError: Cannot read properties of undefined (reading 'region')",
  'QueryTimeoutError: canceling statement due to statement timeout',
  'RangeError: Invalid time value',
  'ValidationError: name must not be empty',
  'ConnectionResetError: [Errno 104] Connection reset by peer',
  'panic: runtime error: index out of range [3] with length 3',
]

function fill(template: string, component: string): string {
  // "Job list" reads "job list" mid-sentence; "HTTP middleware" keeps its acronym.
  const lowered = /^[A-Z][a-z]/.test(component) ? component.charAt(0).toLowerCase() + component.slice(1) : component
  return template.replace('{c}', lowered)
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** A log excerpt in the language's style. */
function logBlock(rng: Random, domain: Domain, when: string): string {
  const module = rng.pick(domain.modules)
  const error = rng.pick(ERRORS)
  return [
    '```text',
    `${when} INFO  http: ${rng.pick(['GET', 'POST', 'PUT'])} /api/v2/${module}?page=${rng.int(2, 40)} -> 500 (${rng.int(120, 9800)} ms)`,
    `${when} ERROR ${module}: ${error}`,
    `    at ${module}.handle (${module}.ts:${rng.int(20, 300)}:${rng.int(5, 40)})`,
    `    at processTicksAndRejections (node:internal/process/task_queues:95:5)`,
    '```',
  ].join('\n')
}

/**
 * An issue: a bug report with steps and logs, a feature request with acceptance criteria as a
 * task list, a chore or a docs request. `earlierIids` are issues it may refer to.
 */
export function issueText(rng: Random, domain: Domain, kind: IssueKind, earlierIids: number, when: string): IssueText {
  const component = rng.pick(domain.components)
  const env = rng.pick(domain.environments)
  const ref = earlierIids > 0 && rng.chance(0.35) ? `\n\nRelated to #${rng.int(1, earlierIids)}.` : ''
  if (kind === 'bug') {
    const [symptom, expected] = rng.pick(SYMPTOMS)
    const steps = [
      `Sign in as a dispatcher on ${env}.`,
      `Open ${component.toLowerCase()}.`,
      rng.pick([
        'Filter by a region with no records.',
        'Save without changing anything.',
        'Switch to the next page.',
        'Go offline and back online.',
        'Import the attached file.',
      ]),
    ]
    const parts = [
      '### Summary',
      '',
      `${component} ${symptom}. ${rng.pick(['Two customers reported it this week.', 'Found during release testing.', 'Spotted in the error tracker.', 'Happens about once an hour.'])}`,
      '',
      '### Steps to reproduce',
      '',
      ...steps.map((s, i) => `${i + 1}. ${s}`),
      '',
      '### What is the current behaviour?',
      '',
      `${capitalise(symptom)}.`,
      '',
      '### What is the expected behaviour?',
      '',
      expected,
    ]
    if (rng.chance(0.6)) parts.push('', '### Relevant logs', '', logBlock(rng, domain, when))
    if (rng.chance(0.3))
      parts.push(
        '',
        '| Environment | Affected |',
        '|---|---|',
        ...domain.environments.map((e) => `| ${e} | ${e === env ? 'yes' : rng.pick(['yes', 'no', 'not checked'])} |`),
      )
    return { kind, component, title: `${component} ${symptom}`, description: parts.join('\n') + ref }
  }
  if (kind === 'feature') {
    const title = fill(rng.pick(FEATURES), component)
    const criteria = rng.sample(
      [
        'The API returns the new field',
        'The UI shows it behind the feature flag',
        'Docs are updated',
        'Existing accounts keep their current behaviour',
        'Covered by an end-to-end test',
        'Works offline',
        'Translations for de, es and ja',
      ],
      rng.int(3, 5),
    )
    const parts = [
      '### Problem to solve',
      '',
      `${rng.pick(PERSONAS)} needs this because ${rng.pick(REASONS)}.`,
      '',
      '### Proposal',
      '',
      `- ${rng.pick(['Add', 'Show', 'Offer'])} it next to the existing actions in ${component.toLowerCase()}.`,
      `- Keep the default unchanged; accounts opt in from the settings page.`,
      '',
      '### Acceptance criteria',
      '',
      ...criteria.map((c) => `- [${rng.chance(0.3) ? 'x' : ' '}] ${c}`),
    ]
    if (rng.chance(0.3))
      parts.push(
        '',
        '```json',
        '{',
        `  "${component.toLowerCase().replace(/\s+/g, '_')}": {`,
        '    "enabled": true,',
        `    "limit": ${rng.int(10, 500)}`,
        '  }',
        '}',
        '```',
      )
    return { kind, component, title, description: parts.join('\n') + ref }
  }
  if (kind === 'chore') {
    const title = fill(rng.pick(CHORES), component)
    const description = [
      `${rng.pick(['This keeps coming up in reviews.', 'We have put this off for two releases.', 'Small, but it makes on-call easier.'])}`,
      '',
      '- [ ] Make the change',
      '- [ ] Check the dashboards after deploy',
      '- [ ] Remove the old code',
    ].join('\n')
    return { kind, component, title, description: description + ref }
  }
  const title = fill(rng.pick(DOCS), component)
  return {
    kind,
    component,
    title,
    description: `The docs for ${component.toLowerCase()} do not say ${rng.pick(['what the defaults are', 'how errors are reported', 'which versions are supported', 'how to run it locally'])}.${ref}`,
  }
}

/** A merge request description: what, why, how to test, and the closing reference when there is one. */
export function mergeRequestDescription(
  rng: Random,
  summary: string,
  closes: number | null,
  files: readonly string[],
): string {
  const parts = [
    '## What does this MR do?',
    '',
    summary,
    '',
    '## How to test',
    '',
    ...rng
      .sample(
        [
          'Run the test suite',
          'Open the page on a small screen',
          'Check the logs for warnings',
          'Try it with an empty account',
          'Compare with the staging behaviour',
        ],
        2,
      )
      .map((s, i) => `${i + 1}. ${s}`),
    '',
    '## Checklist',
    '',
    `- [x] Tests added or updated`,
    `- [${rng.chance(0.6) ? 'x' : ' '}] Docs updated`,
    `- [${rng.chance(0.5) ? 'x' : ' '}] Changelog entry`,
  ]
  if (files.length > 0) parts.push('', `Touches ${files.map((f) => `\`${f}\``).join(', ')}.`)
  if (closes !== null) parts.push('', `Closes #${closes}`)
  return parts.join('\n')
}

const ISSUE_COMMENTS = [
  'Does this also happen on {env}? I could only reproduce it locally.',
  'Is this a regression from the last release, or has it always been like this?',
  'I can reproduce this on {env}. It started after the last deploy.',
  'How many customers are affected? That decides whether it goes into this release.',
  "I'll pick this up after the release.",
  'Moving this to the next milestone, we are out of capacity for this one.',
  'Quick update: root cause found, the fix is in review.',
  'Blocked on an upstream fix; I will keep an eye on it.',
  'Here is a minimal reproduction:\n\n```ts\nconst res = await api.get(`/{module}?region=`)\nexpect(res.status).toBe(200) // fails with 500\n```',
  'The culprit seems to be this query:\n\n```sql\nSELECT * FROM {module} WHERE region = $1 ORDER BY updated_at DESC LIMIT 50;\n```\n\nIt does a full scan without the region index.',
  'Talked to the customer: they are fine with a workaround until the fix ships.',
  'Design proposal attached in the thread below. Feedback welcome!',
  'This is a duplicate of something we fixed last year, but the fix did not cover {component}.',
  'Adding this to the release notes draft.',
]

const REPLIES = [
  'Yes, same on {env}.',
  'Good question. I think it came in with the refactoring last month.',
  'Two customers so far, both on the EU cluster.',
  "Agreed, let's keep it small and follow up separately.",
  'Done, pushed a fix.',
  'Thanks for checking!',
  'Makes sense to me.',
  'I would rather not change the default; an opt-in setting is safer.',
  'Confirmed fixed on staging.',
]

const REVIEW_COMMENTS = [
  'Nice cleanup! One question about the error handling in `{file}`: what happens when the lookup fails?',
  'Could we add a test for the empty case?',
  'This looks good to me. :thumbsup:',
  'nit: `{fn}` reads a bit odd next to the other names in this module.',
  'Should this be behind a feature flag until the release ships?',
  'LGTM once the pipeline is green.',
  "I'd rather not add another dependency for this. Could we use the standard library?",
  'Can we log the id here? Debugging this in production will be painful otherwise.',
  'This changes the default for existing accounts, is that intended?',
]

const AUTHOR_REPLIES = [
  'Good catch, fixed in the latest push.',
  'Added a test.',
  'Renamed, thanks.',
  "I'd keep it as is for now; I opened a follow-up issue.",
  'Yes, intended: the old default was the bug.',
  'Done. Also added the id to the log line.',
]

const ROOT_MENTIONS = [
  '@root could you take a look at this when you have a minute?',
  '@root can you confirm this is expected for admin accounts?',
  'cc @root: this needs an admin to change the instance setting.',
  'Looping in @root, who set up the original integration.',
]

/** Fills the placeholders of a comment template. */
function comment(
  template: string,
  o: {
    readonly env: string
    readonly module: string
    readonly component: string
    readonly file?: string
    readonly fn?: string
  },
): string {
  return template
    .replace('{env}', o.env)
    .replace('{module}', o.module)
    .replace('{component}', o.component.toLowerCase())
    .replace('{file}', o.file ?? 'the handler')
    .replace('{fn}', o.fn ?? 'the new helper')
}

/** A comment on an issue. */
export function issueComment(rng: Random, domain: Domain, component: string): string {
  return comment(rng.pick(ISSUE_COMMENTS), {
    env: rng.pick(domain.environments),
    module: rng.pick(domain.modules),
    component,
  })
}

/** A reply in a thread. */
export function reply(rng: Random, domain: Domain, component: string): string {
  return comment(rng.pick(REPLIES), { env: rng.pick(domain.environments), module: rng.pick(domain.modules), component })
}

/** A reviewer's remark on a merge request. */
export function reviewComment(rng: Random, domain: Domain, file: string, fn: string): string {
  return comment(rng.pick(REVIEW_COMMENTS), {
    env: rng.pick(domain.environments),
    module: rng.pick(domain.modules),
    component: rng.pick(domain.components),
    file,
    fn,
  })
}

/** The merge request author's answer to a review remark. */
export function authorReply(rng: Random): string {
  return rng.pick(AUTHOR_REPLIES)
}

/** A comment that mentions root (root's to-do list should not be empty in the demo). */
export function rootMention(rng: Random): string {
  return rng.pick(ROOT_MENTIONS)
}

/** A URL-safe branch name from a title, GitLab-style (`12-fix-the-thing`). */
export function branchSlug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .split('-')
    .slice(0, 7)
    .join('-')
}
