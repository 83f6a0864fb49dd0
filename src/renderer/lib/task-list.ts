/**
 * Markdown task lists (`- [ ] write tests`): where they are in the source, and the source with
 * one of them ticked or unticked — what GitLab does when a task checkbox is clicked (an update of
 * the description, here through the outbox). Tasks are counted in document order, the order in
 * which the rendered checkboxes appear; fenced code blocks are skipped, as Markdown does not
 * render tasks there.
 */

export interface TaskItem {
  /** 0-based position among the tasks, in document order. */
  readonly index: number
  /** 0-based line number in the source. */
  readonly line: number
  readonly checked: boolean
}

// A list item marker (bullet or ordered, possibly inside block quotes), then `[ ]`/`[x]` and a space.
const TASK = /^((?:[ \t]*>)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\[([ xX])\](?=[ \t])/
const FENCE = /^[ \t]{0,3}((?:[ \t]*>)*[ \t]*)(`{3,}|~{3,})/

/** The tasks of a Markdown text, in document order. */
export function findTasks(source: string): TaskItem[] {
  const tasks: TaskItem[] = []
  let fence: string | null = null
  source.split('\n').forEach((text, line) => {
    const f = FENCE.exec(text)
    if (f !== null) {
      const marker = f[2]
      if (fence === null) fence = marker
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null
      return
    }
    if (fence !== null) return
    const m = TASK.exec(text)
    if (m !== null) tasks.push({ index: tasks.length, line, checked: m[2] !== ' ' })
  })
  return tasks
}

/**
 * The source with task `index` set to `checked`; everything else byte for byte as it was (line
 * endings included). Null when there is no such task.
 */
export function setTask(source: string, index: number, checked: boolean): string | null {
  const task = findTasks(source).find((t) => t.index === index)
  if (task === undefined) return null
  const lines = source.split('\n')
  lines[task.line] = lines[task.line].replace(TASK, (_all, lead: string) => `${lead}[${checked ? 'x' : ' '}]`)
  return lines.join('\n')
}
