import { inject, ref, watch, type Ref } from 'vue'
import { bridgeKey, type Bridge } from '../bridge'

/** Answers kept per page: a list scrolls the same few people by many times. */
const MAX_REMEMBERED = 500
/** A "no image" answer is asked again after this long (the instance may have come back online). */
const RETRY_EMPTY_MS = 60_000

const remembered = new WeakMap<Bridge, Map<string, Promise<string | null>>>()

function ask(bridge: Bridge, accountId: string, url: string): Promise<string | null> {
  let answers = remembered.get(bridge)
  if (answers === undefined) {
    answers = new Map()
    remembered.set(bridge, answers)
  }
  const key = `${accountId}\n${url}`
  const known = answers.get(key)
  if (known !== undefined) return known
  const pending = bridge.request('avatars:get', { accountId, url }).catch(() => null)
  answers.set(key, pending)
  if (answers.size > MAX_REMEMBERED) answers.delete(answers.keys().next().value as string)
  void pending.then((image) => {
    if (image === null) setTimeout(() => answers.delete(key), RETRY_EMPTY_MS)
  })
  return pending
}

/**
 * An avatar as a data URL from core (`avatars:get`: fetched from the account's own instance,
 * cached, offline too), or null while it loads, when there is none, or when the component has
 * no bridge or no account to ask for. One request per account and URL per page.
 */
export function useAvatar(
  accountId: () => string | null | undefined,
  url: () => string | null | undefined,
): Readonly<Ref<string | null>> {
  // Optional: components that show avatars are also mounted without the app around them.
  const bridge = inject(bridgeKey, null)
  const image = ref<string | null>(null)
  watch(
    [accountId, url],
    ([account, address], _old, onCleanup) => {
      image.value = null
      if (bridge === null || !account || !address || !/^https?:\/\//i.test(address)) return
      let current = true
      onCleanup(() => (current = false))
      void ask(bridge, account, address).then((answer) => {
        if (current) image.value = answer
      })
    },
    { immediate: true },
  )
  return image
}
