import type { IconName } from './components/common/icons'

/** A resource family of the sidebar: one route, one shortcut, and what it will hold. */
export interface Family {
  readonly key: string
  readonly label: string
  readonly path: string
  readonly icon: IconName
  /** `g` then this key goes there. */
  readonly key2: string
  readonly section: 'Work' | 'Code' | 'Operate' | 'Administer'
  readonly description: string
  /** What the family covers, as GitLab's API groups it. */
  readonly resources: readonly string[]
}

export const FAMILIES: readonly Family[] = [
  {
    key: 'issues',
    label: 'Issues',
    path: '/issues',
    icon: 'issues',
    key2: 'i',
    section: 'Work',
    description: 'Issues across your projects, searchable and triageable offline.',
    resources: [
      'Issue lists and saved filters',
      'Issue detail and discussions',
      'Labels, assignees, milestones',
      'Time tracking',
    ],
  },
  {
    key: 'merge-requests',
    label: 'Merge requests',
    path: '/merge-requests',
    icon: 'merge-requests',
    key2: 'm',
    section: 'Work',
    description: 'Review changes, discussions, approvals and pipelines.',
    resources: ['Merge request lists', 'Overview and changes', 'Discussions and approvals', 'Merge and rebase'],
  },
  {
    key: 'epics',
    label: 'Epics',
    path: '/epics',
    icon: 'epics',
    key2: 'e',
    section: 'Work',
    description: 'Epics of your groups as a tree, with their dates.',
    resources: ['Epic tree', 'Child issues', 'Start and due dates'],
  },
  {
    key: 'milestones',
    label: 'Milestones',
    path: '/milestones',
    icon: 'milestones',
    key2: 'l',
    section: 'Work',
    description: 'Progress of project and group milestones.',
    resources: ['Progress', 'Issues and merge requests', 'Burndown'],
  },
  {
    key: 'boards',
    label: 'Boards',
    path: '/boards',
    icon: 'boards',
    key2: 'b',
    section: 'Work',
    description: "A project's issues as lists by label; moving a card relabels the issue.",
    resources: ['Issue boards', 'Label lists', 'Moving issues between lists'],
  },
  {
    key: 'todos',
    label: 'To-dos',
    path: '/todos',
    icon: 'todos',
    key2: 't',
    section: 'Work',
    description: 'What is waiting for you.',
    resources: ['Pending to-dos', 'Mark done'],
  },
  {
    key: 'repositories',
    label: 'Repositories',
    path: '/repositories',
    icon: 'repositories',
    key2: 'r',
    section: 'Code',
    description: 'Local clones: files, history and diffs, offline.',
    resources: ['Files and trees', 'Commits and compare', 'Branches and tags'],
  },
  {
    key: 'wiki',
    label: 'Wiki',
    path: '/wiki',
    icon: 'wiki',
    key2: 'w',
    section: 'Code',
    description: "A project's wiki pages: read them (offline too) and write them.",
    resources: ['Wiki pages', 'Markdown, RDoc, AsciiDoc and Org', 'The wiki repository'],
  },
  {
    key: 'projects',
    label: 'Projects',
    path: '/projects',
    icon: 'projects',
    key2: 'p',
    section: 'Code',
    description: 'Projects you are a member of.',
    resources: ['Projects', 'Members', 'Settings'],
  },
  {
    key: 'groups',
    label: 'Groups',
    path: '/groups',
    icon: 'groups',
    key2: 'g',
    section: 'Code',
    description: 'Groups and subgroups.',
    resources: ['Groups', 'Members', 'Labels'],
  },
  {
    key: 'ci-cd',
    label: 'CI/CD',
    path: '/ci-cd',
    icon: 'cicd',
    key2: 'c',
    section: 'Operate',
    description: 'Pipelines, jobs and runners.',
    resources: ['Pipelines and jobs', 'Runners', 'CI lint'],
  },
  {
    key: 'operations',
    label: 'Operations',
    path: '/operations',
    icon: 'operations',
    key2: 'o',
    section: 'Operate',
    description: 'Environments, alerts and error tracking.',
    resources: ['Environments and protected environments', 'Alerts', 'Error tracking', 'Clusters'],
  },
  {
    key: 'security',
    label: 'Security',
    path: '/security',
    icon: 'security',
    key2: 's',
    section: 'Operate',
    description: 'Vulnerabilities and dependencies.',
    resources: ['Vulnerabilities', 'Dependencies'],
  },
  {
    key: 'admin',
    label: 'Admin',
    path: '/admin',
    icon: 'admin',
    key2: 'a',
    section: 'Administer',
    description: 'Instance administration (administrators only).',
    resources: ['Users', 'All runners', 'Audit events', 'Replication nodes', 'Pages domains', 'Storage moves'],
  },
  {
    key: 'account',
    label: 'Your account',
    path: '/account',
    icon: 'user',
    key2: 'u',
    section: 'Administer',
    description: 'Your access tokens and activity.',
    resources: ['Access tokens', 'Activity'],
  },
]

export const SECTIONS = ['Work', 'Code', 'Operate', 'Administer'] as const
