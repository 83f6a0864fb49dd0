/**
 * The demo world: Kestrel, a small company building a field-service scheduling product, with
 * its people, groups, projects, labels and release milestones. Pure data; demo.ts writes it.
 */
import type { Visibility } from '../platform/db/rows'
import type { Language } from './code'

export interface Person {
  readonly username: string
  readonly name: string
  readonly jobTitle: string
  readonly location: string
  readonly bio: string
  readonly pronouns?: string
  /** Which kinds of work this person does, to pick authors, assignees and reviewers. */
  readonly roles: readonly ('backend' | 'frontend' | 'design' | 'product' | 'ops' | 'qa' | 'lead' | 'community')[]
}

export const PEOPLE: readonly Person[] = [
  {
    username: 'amara',
    name: 'Amara Okafor',
    jobTitle: 'Engineering Manager',
    location: 'Lisbon',
    bio: 'Keeping the trains running. Ask me about release planning.',
    pronouns: 'she/her',
    roles: ['lead', 'backend'],
  },
  {
    username: 'jonas',
    name: 'Jonas Lindqvist',
    jobTitle: 'Backend Engineer',
    location: 'Stockholm',
    bio: 'APIs, queues and the occasional Go side project.',
    pronouns: 'he/him',
    roles: ['backend', 'community'],
  },
  {
    username: 'priya',
    name: 'Priya Raman',
    jobTitle: 'Staff Engineer',
    location: 'Bengaluru',
    bio: 'Billing, data models, and reviewing your migrations.',
    pronouns: 'she/her',
    roles: ['backend', 'lead'],
  },
  {
    username: 'diego',
    name: 'Diego Fernández',
    jobTitle: 'Frontend Engineer',
    location: 'Valencia',
    bio: 'Vue, offline-first apps and accessible forms.',
    pronouns: 'he/him',
    roles: ['frontend'],
  },
  {
    username: 'hana',
    name: 'Hana Kobayashi',
    jobTitle: 'Product Designer',
    location: 'Osaka',
    bio: 'Designing for technicians with gloves on.',
    pronouns: 'she/her',
    roles: ['design', 'frontend'],
  },
  {
    username: 'lena',
    name: 'Lena Vogel',
    jobTitle: 'Product Manager',
    location: 'Berlin',
    bio: 'Customer calls, roadmaps, and too many spreadsheets.',
    pronouns: 'she/her',
    roles: ['product'],
  },
  {
    username: 'tomasz',
    name: 'Tomasz Wójcik',
    jobTitle: 'Site Reliability Engineer',
    location: 'Kraków',
    bio: 'On call so you do not have to be.',
    pronouns: 'he/him',
    roles: ['ops', 'backend'],
  },
  {
    username: 'noor',
    name: 'Noor Haddad',
    jobTitle: 'QA Engineer',
    location: 'Amman',
    bio: 'If it can break, I will find out how.',
    pronouns: 'she/her',
    roles: ['qa'],
  },
  {
    username: 'kofi',
    name: 'Kofi Mensah',
    jobTitle: 'Software Developer',
    location: 'Accra',
    bio: 'Open-source contributor. Rate limiters are my hobby.',
    pronouns: 'he/him',
    roles: ['community'],
  },
]

export interface GroupSpec {
  readonly key: string
  readonly name: string
  readonly path: string
  readonly parent?: string
  readonly visibility: Visibility
  readonly description: string
  /** Who creates it (becomes Owner). */
  readonly creator: string
  /** Direct members with their access levels (the creator is Owner already). */
  readonly members: readonly (readonly [string, number])[]
}

export const GROUPS: readonly GroupSpec[] = [
  {
    key: 'kestrel',
    name: 'Kestrel',
    path: 'kestrel',
    visibility: 'internal',
    creator: 'amara',
    description: 'Kestrel builds Dispatch, scheduling and invoicing for field-service teams.',
    members: [
      ['root', 40],
      ['priya', 40],
      ['tomasz', 40],
      ['jonas', 30],
      ['diego', 30],
      ['hana', 30],
      ['noor', 30],
      ['lena', 20],
    ],
  },
  {
    key: 'platform',
    name: 'Platform',
    path: 'platform',
    parent: 'kestrel',
    visibility: 'internal',
    creator: 'priya',
    description: 'Backend services: the Dispatch API and billing.',
    members: [],
  },
  {
    key: 'oss',
    name: 'Kestrel Open Source',
    path: 'kestrel-oss',
    visibility: 'public',
    creator: 'jonas',
    description: 'Libraries we maintain in the open.',
    members: [
      ['root', 40],
      ['priya', 40],
    ],
  },
]

export interface ProjectSpec {
  readonly key: string
  readonly name: string
  readonly path: string
  /** A group key, or `user:<username>` for a personal project. */
  readonly namespace: string
  readonly visibility: Visibility
  readonly description: string
  readonly topics: readonly string[]
  readonly language: Language
  readonly creator: string
  /** Days before "now" the project (and its history) starts. */
  readonly ageDays: number
  readonly issues: number
  readonly mergeRequests: number
  /** Extra direct project members. */
  readonly members: readonly (readonly [string, number])[]
  /** People who work on it day to day (authors and assignees). */
  readonly team: readonly string[]
  /** Project labels on top of the group's. */
  readonly labels: readonly LabelSpec[]
  /** Release milestones: the group's (`group`) or the project's own version milestones. */
  readonly milestones: 'group' | 'project' | 'none'
  /** Which labels its issues carry: Kestrel's group labels, the open-source set, or none. */
  readonly labelSet: 'kestrel' | 'oss' | 'none'
  /** The subject the texts talk about. */
  readonly domain: Domain
  /** Where it deploys (review apps per branch, staging from main, production from tags); absent: CI only tests it. */
  readonly deploy?: DeploySpec
  /** Packages its manifest pins and its lock file records (the dependency list reads them). */
  readonly dependencies?: readonly PackagePin[]
}

export interface DeploySpec {
  readonly productionUrl: string
  readonly stagingUrl: string
  /** Review apps live at `https://<branch slug>.<reviewDomain>`. */
  readonly reviewDomain: string
}

/** A package at an exact version; `dev` for tooling, `direct` false for what a direct one pulls in. */
export interface PackagePin {
  readonly name: string
  readonly version: string
  readonly dev?: boolean
  readonly direct?: boolean
}

export interface LabelSpec {
  readonly title: string
  readonly color: string
  readonly description: string
}

/** What a project is about, for issue and merge request texts and for its code. */
export interface Domain {
  /** Parts of the product bugs and features are about. */
  readonly components: readonly string[]
  /** Code modules (file names without extension). */
  readonly modules: readonly string[]
  /** Things the code handles. */
  readonly entities: readonly string[]
  /** Environments bugs are seen in. */
  readonly environments: readonly string[]
}

export const GROUP_LABELS: readonly LabelSpec[] = [
  { title: 'bug', color: '#d9534f', description: "Something isn't working" },
  { title: 'feature', color: '#428bca', description: 'New functionality' },
  { title: 'enhancement', color: '#5cb85c', description: 'Improves something that already exists' },
  { title: 'documentation', color: '#f0ad4e', description: 'Docs, READMEs and help texts' },
  { title: 'tech debt', color: '#8e44ad', description: 'Cleanup that makes future work cheaper' },
  { title: 'security', color: '#cc0033', description: 'Security-relevant; may need a confidential issue' },
  { title: 'performance', color: '#ff8800', description: 'Slow paths, memory, query counts' },
  { title: 'ux', color: '#ad4363', description: 'Needs design input' },
  { title: 'customer', color: '#34495e', description: 'Reported by or blocking a customer' },
  { title: 'priority::high', color: '#ff0000', description: 'Do this next' },
  { title: 'priority::medium', color: '#ffaa00', description: 'Planned for the current release' },
  { title: 'priority::low', color: '#a8d695', description: 'Nice to have' },
  { title: 'workflow::ready', color: '#009966', description: 'Refined and ready to pick up' },
  { title: 'workflow::in progress', color: '#1f78d1', description: 'Somebody is on it' },
  { title: 'workflow::in review', color: '#6699cc', description: 'Waiting for review' },
  { title: 'workflow::blocked', color: '#330066', description: 'Waiting on something outside the team' },
]

export const OSS_LABELS: readonly LabelSpec[] = [
  { title: 'bug', color: '#d73a4a', description: "Something isn't working" },
  { title: 'enhancement', color: '#a2eeef', description: 'New feature or request' },
  { title: 'documentation', color: '#0075ca', description: 'Improvements or additions to documentation' },
  { title: 'question', color: '#d876e3', description: 'Further information is requested' },
  { title: 'good first issue', color: '#7057ff', description: 'Good for newcomers' },
  { title: 'help wanted', color: '#008672', description: 'Extra attention is needed' },
  { title: 'breaking change', color: '#b60205', description: 'Needs a major version' },
]

export const PROJECTS: readonly ProjectSpec[] = [
  {
    key: 'api',
    name: 'Dispatch API',
    path: 'dispatch-api',
    namespace: 'platform',
    visibility: 'internal',
    language: 'typescript',
    creator: 'priya',
    description: 'REST API behind Kestrel Dispatch: jobs, technicians, schedules and webhooks.',
    topics: ['typescript', 'api', 'postgres'],
    ageDays: 230,
    issues: 110,
    mergeRequests: 30,
    members: [],
    milestones: 'group',
    labelSet: 'kestrel',
    team: ['priya', 'jonas', 'amara', 'tomasz', 'noor', 'lena', 'root'],
    labels: [
      { title: 'api', color: '#0e8a16', description: 'Public REST endpoints' },
      { title: 'scheduler', color: '#5319e7', description: 'Job scheduling and routing' },
      { title: 'webhooks', color: '#c5def5', description: 'Outgoing webhook delivery' },
    ],
    domain: {
      components: [
        'Job scheduler',
        'Webhook delivery',
        'Technician availability',
        'Jobs endpoint',
        'Customer import',
        'Auth tokens',
        'Rate limiter',
        'Route optimiser',
        'Audit log',
        'Search',
      ],
      modules: ['jobs', 'technicians', 'schedules', 'webhooks', 'customers', 'auth', 'routing', 'audit'],
      entities: ['job', 'technician', 'schedule', 'customer', 'webhook', 'visit', 'token', 'region'],
      environments: ['staging', 'production (EU)', 'production (US)', 'a local docker-compose setup'],
    },
    deploy: {
      productionUrl: 'https://api.dispatch.kestrel.example',
      stagingUrl: 'https://api.staging.dispatch.kestrel.example',
      reviewDomain: 'review.dispatch.kestrel.example',
    },
    dependencies: [
      { name: 'express', version: '4.19.2' },
      { name: 'body-parser', version: '1.20.2', direct: false },
      { name: 'cookie', version: '0.6.0', direct: false },
      { name: 'debug', version: '2.6.9', direct: false },
      { name: 'ms', version: '2.0.0', direct: false },
      { name: 'lodash', version: '4.17.20' },
      { name: 'pg', version: '8.11.3' },
      { name: 'pg-pool', version: '3.6.1', direct: false },
      { name: 'pg-protocol', version: '1.6.0', direct: false },
      { name: 'pino', version: '8.19.0' },
      { name: 'zod', version: '3.23.8' },
      { name: 'eslint', version: '8.57.0', dev: true },
      { name: 'tsx', version: '4.7.2', dev: true },
      { name: 'typescript', version: '5.4.5', dev: true },
      { name: 'vitest', version: '1.5.0', dev: true },
    ],
  },
  {
    key: 'billing',
    name: 'Billing',
    path: 'billing',
    namespace: 'platform',
    visibility: 'private',
    language: 'python',
    creator: 'priya',
    description: 'Invoices, payments and tax rules for Dispatch customers.',
    topics: ['python', 'payments'],
    ageDays: 180,
    issues: 45,
    mergeRequests: 12,
    members: [],
    milestones: 'group',
    labelSet: 'kestrel',
    team: ['priya', 'jonas', 'amara', 'lena', 'noor'],
    labels: [
      { title: 'invoices', color: '#fbca04', description: 'Invoice generation and PDFs' },
      { title: 'payments', color: '#1d76db', description: 'Payment providers and reconciliation' },
    ],
    domain: {
      components: [
        'Invoice PDF',
        'VAT calculation',
        'Payment reconciliation',
        'Dunning e-mails',
        'Credit notes',
        'Currency conversion',
        'Stripe webhook',
      ],
      modules: ['invoices', 'payments', 'tax', 'dunning', 'currency', 'ledger'],
      entities: ['invoice', 'payment', 'credit_note', 'customer', 'tax_rate', 'ledger_entry'],
      environments: ['staging', 'production', 'the nightly reconciliation job'],
    },
    deploy: {
      productionUrl: 'https://billing.dispatch.kestrel.example',
      stagingUrl: 'https://billing.staging.dispatch.kestrel.example',
      reviewDomain: 'review.billing.kestrel.example',
    },
    dependencies: [
      { name: 'fastapi', version: '0.110.0' },
      { name: 'httpx', version: '0.27.0' },
      { name: 'pydantic', version: '2.6.4' },
      { name: 'python-dateutil', version: '2.9.0' },
      { name: 'sqlalchemy', version: '2.0.29' },
      { name: 'stripe', version: '8.9.0' },
      { name: 'weasyprint', version: '61.2' },
    ],
  },
  {
    key: 'app',
    name: 'Field App',
    path: 'field-app',
    namespace: 'kestrel',
    visibility: 'internal',
    language: 'typescript',
    creator: 'diego',
    description: 'The offline-first web app technicians use on site.',
    topics: ['vue', 'pwa', 'offline'],
    ageDays: 200,
    issues: 80,
    mergeRequests: 22,
    members: [],
    milestones: 'group',
    labelSet: 'kestrel',
    team: ['diego', 'hana', 'noor', 'lena', 'amara', 'root'],
    labels: [
      { title: 'offline', color: '#5b6770', description: 'Sync, caching and conflict handling' },
      { title: 'ios', color: '#999999', description: 'Safari on iPhone and iPad' },
      { title: 'android', color: '#3ddc84', description: 'Chrome on Android' },
    ],
    domain: {
      components: [
        'Job list',
        'Signature pad',
        'Photo upload',
        'Offline sync',
        'Map view',
        'Login screen',
        'Checklist form',
        'Time sheet',
        'Settings page',
      ],
      modules: ['jobList', 'signature', 'photos', 'sync', 'mapView', 'checklist', 'timesheet', 'settings'],
      entities: ['job', 'photo', 'checklist', 'signature', 'timesheet', 'visit'],
      environments: ['iOS 17 Safari', 'Android 14 Chrome', 'a Samsung tablet', 'desktop Firefox'],
    },
    deploy: {
      productionUrl: 'https://app.dispatch.kestrel.example',
      stagingUrl: 'https://app.staging.dispatch.kestrel.example',
      reviewDomain: 'review.field-app.kestrel.example',
    },
    dependencies: [
      { name: 'idb', version: '8.0.0' },
      { name: 'lodash-es', version: '4.17.21' },
      { name: 'pinia', version: '2.1.7' },
      { name: 'vue', version: '3.4.21' },
      { name: 'vue-router', version: '4.3.0' },
      { name: 'workbox-window', version: '7.0.0' },
      { name: '@vitejs/plugin-vue', version: '5.0.4', dev: true },
      { name: 'typescript', version: '5.4.5', dev: true },
      { name: 'vite', version: '5.2.8', dev: true },
      { name: 'vitest', version: '1.5.0', dev: true },
    ],
  },
  {
    key: 'website',
    name: 'Website',
    path: 'website',
    namespace: 'kestrel',
    visibility: 'internal',
    language: 'markdown',
    creator: 'hana',
    description: 'kestrel.example: marketing pages, pricing and the changelog.',
    topics: ['website', 'static-site'],
    ageDays: 150,
    issues: 20,
    mergeRequests: 6,
    members: [],
    milestones: 'none',
    labelSet: 'kestrel',
    team: ['hana', 'lena', 'diego'],
    labels: [],
    domain: {
      components: ['Pricing page', 'Blog', 'Changelog page', 'Contact form', 'Navigation', 'Footer'],
      modules: ['pricing', 'features', 'about', 'contact', 'security', 'careers'],
      entities: ['page', 'post', 'plan', 'image'],
      environments: ['Safari', 'Chrome on a small screen', 'the preview deployment'],
    },
  },
  {
    key: 'oss',
    name: 'Tidewater',
    path: 'tidewater',
    namespace: 'oss',
    visibility: 'public',
    language: 'go',
    creator: 'jonas',
    description: 'A small Go library for token-bucket rate limiting with pluggable storage.',
    topics: ['go', 'rate-limiting', 'library'],
    ageDays: 210,
    issues: 40,
    mergeRequests: 12,
    members: [['kofi', 30]],
    milestones: 'project',
    labelSet: 'oss',
    team: ['jonas', 'kofi', 'priya', 'root'],
    labels: OSS_LABELS,
    domain: {
      components: [
        'Token bucket',
        'Redis store',
        'Memory store',
        'HTTP middleware',
        'Clock abstraction',
        'Metrics hook',
      ],
      modules: ['bucket', 'store', 'memory', 'redis', 'middleware', 'metrics'],
      entities: ['bucket', 'limit', 'store', 'key', 'rate', 'window'],
      environments: ['Go 1.22 on Linux', 'Go 1.21 on macOS', 'a Redis cluster'],
    },
  },
  {
    key: 'dotfiles',
    name: 'dotfiles',
    path: 'dotfiles',
    namespace: 'user:jonas',
    visibility: 'public',
    language: 'markdown',
    creator: 'jonas',
    description: 'My shell, editor and git configuration.',
    topics: ['dotfiles'],
    ageDays: 120,
    issues: 3,
    mergeRequests: 0,
    members: [],
    milestones: 'none',
    labelSet: 'none',
    team: ['jonas'],
    labels: [],
    domain: {
      components: ['zsh config', 'Neovim config', 'git aliases'],
      modules: ['zshrc', 'gitconfig', 'init'],
      entities: ['alias', 'plugin', 'keymap'],
      environments: ['macOS', 'Debian'],
    },
  },
]

/** Releases of the group milestones: every six weeks, the current one due in ten days. */
export const RELEASE_MILESTONES = [
  { title: 'Release 3.3', dueInDays: -116, lengthDays: 41, description: 'Customer import and audit log.' },
  { title: 'Release 3.4', dueInDays: -74, lengthDays: 41, description: 'Webhooks v2, faster schedules.' },
  { title: 'Release 3.5', dueInDays: -32, lengthDays: 41, description: 'Offline sync rework and billing exports.' },
  {
    title: 'Release 3.6',
    dueInDays: 10,
    lengthDays: 41,
    description: 'Route optimiser beta, signature capture on Android, VAT rules.',
  },
  { title: 'Release 3.7', dueInDays: 52, lengthDays: 41, description: 'Planning in progress: see the roadmap epic.' },
] as const

/** Version milestones of the open-source library. */
export const VERSION_MILESTONES = [
  { title: 'v0.8.0', dueInDays: -120, lengthDays: 60, description: 'Pluggable stores.' },
  { title: 'v0.9.0', dueInDays: -45, lengthDays: 70, description: 'Redis store and HTTP middleware.' },
  {
    title: 'v1.0.0',
    dueInDays: 21,
    lengthDays: 65,
    description: 'API freeze. Only breaking changes that make 1.x easier to maintain.',
  },
  { title: 'Backlog', dueInDays: null, lengthDays: 0, description: 'Ideas without a release.' },
] as const

export interface EpicSpec {
  readonly key: string
  /** The group it belongs to (a GROUPS key). */
  readonly group: string
  readonly title: string
  readonly description: string
  readonly author: string
  readonly labels: readonly string[]
  /** Days before "now" it is opened. */
  readonly openedDaysAgo: number
  /** Fixed start and due dates, in days from "now" (null: inherited from its issues). */
  readonly startInDays: number | null
  readonly dueInDays: number | null
  /** Closed this many days before "now". */
  readonly closedDaysAgo?: number
  readonly parent?: string
  /** Projects (PROJECTS keys) whose issues it gathers, and how many. */
  readonly issuesFrom: readonly string[]
  readonly issueCount: number
}

export const EPICS: readonly EpicSpec[] = [
  {
    key: 'roadmap',
    group: 'kestrel',
    title: 'Dispatch roadmap: second half of the year',
    author: 'lena',
    labels: ['feature'],
    openedDaysAgo: 100,
    startInDays: -60,
    dueInDays: 120,
    issuesFrom: [],
    issueCount: 0,
    description:
      '## Themes\n\n1. **Plan faster**: route optimiser, bulk edits.\n2. **Work offline**: sync v2 on every device.\n3. **Get paid**: EU VAT rules and credit notes.\n\nChild epics track each theme; issues hang off the children.',
  },
  {
    key: 'routes',
    group: 'kestrel',
    parent: 'roadmap',
    title: 'Route optimiser beta',
    author: 'amara',
    labels: ['feature', 'priority::high'],
    openedDaysAgo: 90,
    startInDays: -40,
    dueInDays: 10,
    issuesFrom: ['api'],
    issueCount: 8,
    description:
      'Suggest the order of visits for each technician, respecting time windows and skills.\n\n### Exit criteria\n\n- [x] API endpoint behind a feature flag\n- [ ] Dispatchers can accept or tweak a suggestion\n- [ ] p95 under 2 s for 200 visits',
  },
  {
    key: 'sync',
    group: 'kestrel',
    parent: 'roadmap',
    title: 'Offline sync v2',
    author: 'diego',
    labels: ['feature', 'ux'],
    openedDaysAgo: 150,
    startInDays: -120,
    dueInDays: -30,
    closedDaysAgo: 25,
    issuesFrom: ['app'],
    issueCount: 9,
    description:
      'Replace the queue-of-requests sync with per-record change sets, so technicians can work a whole day without signal.',
  },
  {
    key: 'vat',
    group: 'kestrel',
    parent: 'roadmap',
    title: 'EU VAT rules',
    author: 'priya',
    labels: ['feature', 'customer'],
    openedDaysAgo: 70,
    startInDays: -20,
    dueInDays: 52,
    issuesFrom: ['billing'],
    issueCount: 6,
    description:
      'One-stop-shop VAT for customers invoicing across EU borders. Legal sign-off is tracked in the billing project.',
  },
  {
    key: 'a11y',
    group: 'kestrel',
    title: 'Accessibility pass on the field app',
    author: 'hana',
    labels: ['ux', 'tech debt'],
    openedDaysAgo: 40,
    startInDays: null,
    dueInDays: null,
    issuesFrom: ['app', 'website'],
    issueCount: 5,
    description:
      'Screen readers, large text and colour contrast: a WCAG 2.2 AA review of every screen technicians use.',
  },
  {
    key: 'v1',
    group: 'oss',
    title: 'Tidewater 1.0',
    author: 'jonas',
    labels: [],
    openedDaysAgo: 60,
    startInDays: -30,
    dueInDays: 21,
    issuesFrom: ['oss'],
    issueCount: 6,
    description: 'Freeze the public API, document every option, and publish a migration guide from 0.9.',
  },
]
