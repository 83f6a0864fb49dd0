/**
 * The app's icons: 24×24 outline paths drawn for Burrow (stroke `currentColor`), so no icon
 * font or remote sprite is needed and the CSP stays `'self'`.
 */

/** A circle as a path (`M` + two arcs), so every icon is a list of path strings. */
function circle(cx: number, cy: number, r: number): string {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`
}

export const ICONS = {
  home: ['M3.5 11 12 4l8.5 7', 'M5.5 9.5V20h5v-5.5h3V20h5V9.5'],
  issues: [circle(12, 12, 8.5), circle(12, 12, 1.5)],
  'merge-requests': [
    circle(6, 5, 2),
    circle(6, 19, 2),
    circle(18, 19, 2),
    'M6 7v10',
    'M18 17v-7a3 3 0 0 0-3-3h-4',
    'M13 4.5 10.5 7 13 9.5',
  ],
  epics: ['M12 3.5 21 8l-9 4.5L3 8z', 'M3 12l9 4.5 9-4.5', 'M3 16l9 4.5 9-4.5'],
  milestones: ['M5.5 21V3.5', 'M5.5 4.5h12l-2.5 4 2.5 4h-12'],
  todos: ['M4.5 4.5h15v15h-15z', 'M8.5 12.5l2.5 2.5 5-5.5'],
  wiki: ['M4.5 5.5c2.5-1 5-1 7.5.5v13c-2.5-1.5-5-1.5-7.5-.5z', 'M19.5 5.5c-2.5-1-5-1-7.5.5v13c2.5-1.5 5-1.5 7.5-.5z'],
  boards: ['M3.5 4.5h17v15h-17z', 'M9.5 4.5v15', 'M15 4.5v15', 'M5.5 7.5h2', 'M11.5 7.5h2', 'M17 7.5h2'],
  repositories: ['M5.5 18.5v-13A2 2 0 0 1 7.5 3.5h11v14h-11a2 2 0 0 0-2 2 2 2 0 0 0 2 2h11', 'M9 7.5h6'],
  projects: ['M3.5 7.5 12 3.5l8.5 4v9L12 20.5l-8.5-4z', 'M3.5 7.5 12 11.5l8.5-4', 'M12 11.5v9'],
  groups: [
    circle(9, 8.5, 3),
    circle(17, 9.5, 2.5),
    'M3.5 19.5c0-3.3 2.5-5.5 5.5-5.5s5.5 2.2 5.5 5.5',
    'M15.5 14.3c2.9-.4 5 1.6 5 4.7',
  ],
  cicd: [circle(12, 12, 8.5), 'M10 8.5v7l5.5-3.5z'],
  operations: ['M3 12.5h4l2.5-6 4.5 11 2.5-5h4.5'],
  security: ['M12 3.5 19.5 6v6c0 4.4-3.2 7.7-7.5 8.7C7.7 19.7 4.5 16.4 4.5 12V6z', 'M9 12l2 2 4-4.5'],
  admin: ['M4 6.5h16', 'M4 12h16', 'M4 17.5h16', circle(9, 6.5, 2), circle(15, 12, 2), circle(8, 17.5, 2)],
  search: [circle(10.5, 10.5, 6.5), 'M15.5 15.5 20.5 20.5'],
  sun: [
    circle(12, 12, 4),
    'M12 2.5v2',
    'M12 19.5v2',
    'M2.5 12h2',
    'M19.5 12h2',
    'M5.3 5.3l1.4 1.4',
    'M17.3 17.3l1.4 1.4',
    'M5.3 18.7l1.4-1.4',
    'M17.3 6.7l1.4-1.4',
  ],
  moon: ['M19.5 14.5A8 8 0 0 1 9.5 4.5a8 8 0 1 0 10 10z'],
  system: ['M3.5 5h17v11h-17z', 'M8.5 20h7', 'M12 16v4'],
  plus: ['M12 5v14', 'M5 12h14'],
  user: [circle(12, 8, 4), 'M4.5 20.5c0-4 3.4-6.5 7.5-6.5s7.5 2.5 7.5 6.5'],
  'chevron-down': ['M6 9.5l6 6 6-6'],
  'chevron-right': ['M9.5 6l6 6-6 6'],
  keyboard: ['M3 6.5h18v11H3z', 'M7 10.5h.01', 'M10.5 10.5h.01', 'M14 10.5h.01', 'M17.5 10.5h.01', 'M7.5 14h9'],
  refresh: ['M19.5 12a7.5 7.5 0 1 1-2.2-5.3', 'M19.5 4.5v4h-4'],
  trash: ['M4.5 7h15', 'M9.5 7V4.5h5V7', 'M6.5 7l1 13h9l1-13'],
  server: ['M4 4.5h16v6H4z', 'M4 13.5h16v6H4z', 'M7.5 7.5h.01', 'M7.5 16.5h.01'],
  globe: [
    circle(12, 12, 8.5),
    'M3.5 12h17',
    'M12 3.5c2.5 2.5 3.5 5.3 3.5 8.5s-1 6-3.5 8.5c-2.5-2.5-3.5-5.3-3.5-8.5s1-6 3.5-8.5z',
  ],
  offline: [
    'M3.5 3.5l17 17',
    'M8.5 8.9A6.5 6.5 0 0 0 6 13.5a4 4 0 0 0 .5 7h10',
    'M11 5.7A6.5 6.5 0 0 1 18 11a4.5 4.5 0 0 1 2.5 6.5',
  ],
  command: ['M9 6v12', 'M15 6v12', 'M6 9h12', 'M6 15h12'],
  comment: ['M4 5.5h16v10H10l-4.5 4v-4H4z'],
  file: ['M6 3.5h8l4.5 4.5v12.5H6z', 'M14 3.5V8h4.5'],
  folder: ['M3.5 6.5a1 1 0 0 1 1-1h5l2 2h8a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1h-15a1 1 0 0 1-1-1z'],
  check: ['M5 12.5l4.5 4.5L19 7.5'],
  alert: ['M12 4 21 19.5H3z', 'M12 10v4.5', 'M12 17.2h.01'],
  lock: ['M5.5 10.5h13v10h-13z', 'M8.5 10.5V7.5a3.5 3.5 0 0 1 7 0v3', 'M12 14.5v2.5'],
  label: ['M3.5 4.5v7l9 9 8-8-9-9h-7a1 1 0 0 0-1 1z', circle(8, 9, 1.5)],
  bell: ['M6 16.5V11a6 6 0 0 1 12 0v5.5l1.5 2h-15z', 'M10 20.5a2 2 0 0 0 4 0'],
  settings: [
    circle(12, 12, 3),
    'M12 3.5v2.5',
    'M12 18v2.5',
    'M3.5 12H6',
    'M18 12h2.5',
    'M6 6l1.8 1.8',
    'M16.2 16.2 18 18',
    'M6 18l1.8-1.8',
    'M16.2 7.8 18 6',
  ],
} as const

export type IconName = keyof typeof ICONS
