import { computed, ref, type ComputedRef, type Ref } from 'vue'
import type { NewIssue } from '../../shared/ipc/outbox'
import { useSyncStore } from '../stores/sync'
import { useIpcError, type IpcErrorState } from './use-ipc-error'
import { useReferenceResolver } from './use-reference-resolver'

/** What a new issue and a new merge request are both given, by the API's field names. */
export type CommonNewWork = Pick<NewIssue, 'title' | 'description' | 'labels' | 'assignee_ids'>

export interface CreateForm extends IpcErrorState {
  readonly accountId: Ref<string>
  /** The project the work is written in (a merge request's source project). */
  readonly projectId: Ref<number | null>
  readonly title: Ref<string>
  readonly description: Ref<string>
  readonly labels: Ref<string[]>
  readonly assigneeIds: Ref<number[]>
  /** The account cannot reach its server: the work is queued in the outbox. */
  readonly offline: ComputedRef<boolean>
  /** What is wrong with the title, or null. */
  readonly titleProblem: ComputedRef<string | null>
  /** Markdown references in the description, resolved in the form's project. */
  readonly resolveReference: ReturnType<typeof useReferenceResolver>
  /** Empties the shared fields and the error, for a new opening. */
  reset(): void
  /** The shared fields the user set; GitLab's defaults stand for the others, so they are left out. */
  common(): CommonNewWork
}

/**
 * The state the new issue and merge request forms share (`WorkCreateDialog` is their frame): the
 * account and project, the title, description, labels and assignees, the send's error and busy
 * flag, and the title's rules (required, at most 255 characters, as GitLab's).
 */
export function useCreateForm(): CreateForm {
  const sync = useSyncStore()
  const accountId = ref('')
  const projectId = ref<number | null>(null)
  const title = ref('')
  const description = ref('')
  const labels = ref<string[]>([])
  const assigneeIds = ref<number[]>([])
  const send = useIpcError()

  const titleProblem = computed(() => {
    const trimmed = title.value.trim()
    if (trimmed === '') return 'A title is required.'
    if (trimmed.length > 255) return 'The title is longer than 255 characters.'
    return null
  })

  return {
    ...send,
    accountId,
    projectId,
    title,
    description,
    labels,
    assigneeIds,
    offline: computed(() => accountId.value !== '' && sync.isOffline(accountId.value)),
    titleProblem,
    resolveReference: useReferenceResolver(
      () => accountId.value,
      () => projectId.value,
    ),
    reset() {
      title.value = ''
      description.value = ''
      labels.value = []
      assigneeIds.value = []
      send.clear()
    },
    common: () => ({
      title: title.value.trim(),
      ...(description.value.trim() === '' ? {} : { description: description.value }),
      ...(labels.value.length === 0 ? {} : { labels: labels.value }),
      ...(assigneeIds.value.length === 0 ? {} : { assignee_ids: assigneeIds.value }),
    }),
  }
}
