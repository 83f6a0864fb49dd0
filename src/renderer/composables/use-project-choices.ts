import { computed, shallowRef, watch, type ComputedRef, type Ref } from 'vue'
import type { SelectOption } from 'naive-ui'
import { useBridge } from '../bridge'
import { formatDay } from '../lib/dates'
import { asLabel, asMilestone, milestoneFitsProject, type Label, type Milestone } from '../lib/items'
import { useReferenceDataStore } from '../stores/reference-data'
import { useProjectUsers, type ProjectUsers } from './use-project-users'

export interface ProjectChoices {
  readonly labels: ComputedRef<SelectOption[]>
  /** Who can be assigned or asked to review: the project's users (`useProjectUsers`). */
  readonly people: ProjectUsers
  readonly milestones: ComputedRef<SelectOption[]>
}

/**
 * What a new item of a project may be given, as select options from the cache: the labels
 * usable in the project, the people who can be assigned in it, and the active milestones of the project
 * and the groups above it. Read again when the account or project changes.
 */
export function useProjectChoices(accountId: Ref<string>, projectId: Ref<number | null>): ProjectChoices {
  const bridge = useBridge()
  const reference = useReferenceDataStore()
  const projectLabels = shallowRef<readonly Label[]>([])
  const projectMilestones = shallowRef<readonly Milestone[]>([])

  watch(
    [accountId, projectId],
    async ([account, project]) => {
      projectLabels.value = []
      projectMilestones.value = []
      if (account === '' || project === null) return
      await reference.ensure(account)
      const path = reference.of(account).projectsById.get(project)?.path_with_namespace ?? ''
      const namespace = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : null
      const [labelRows, milestoneRows] = await Promise.all([
        bridge.request('labels:list', account, { project_id: project }).catch(() => []),
        bridge.request('milestones:list', account, { state: 'active' }).catch(() => []),
      ])
      if (account !== accountId.value || project !== projectId.value) return
      projectLabels.value = labelRows.map(asLabel)
      projectMilestones.value = milestoneRows
        .map((m) => asMilestone(m.data))
        .filter((m) => milestoneFitsProject(m, project, namespace))
    },
    { immediate: true },
  )

  return {
    labels: computed(() =>
      projectLabels.value.map((l) => ({ value: l.name, label: l.name, style: { borderLeft: `4px solid ${l.color}` } })),
    ),
    people: useProjectUsers(
      () => accountId.value,
      () => projectId.value,
    ),
    milestones: computed(() =>
      projectMilestones.value.map((m) => ({
        value: m.id,
        label: m.due_date ? `${m.title} · due ${formatDay(m.due_date)}` : m.title,
      })),
    ),
  }
}
