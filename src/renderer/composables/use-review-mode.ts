import { ref, watch, type Ref } from 'vue'
import type { ReviewMode } from '../lib/review'
import { readStored, writeStored } from '../lib/storage'

const MODE_KEY = 'burrow.review-mode'
const isReviewMode = (v: unknown): v is ReviewMode => v === 'unified' || v === 'split'

/**
 * How diffs are laid out, unified or side by side: one choice, kept on this device, for a merge
 * request's Changes and a commit's diff alike (GitLab keeps it per user the same way).
 */
export function useReviewMode(): Ref<ReviewMode> {
  const mode = ref<ReviewMode>(readStored(MODE_KEY, isReviewMode, 'unified'))
  watch(mode, (m) => writeStored(MODE_KEY, m))
  return mode
}
