import { computed, type ComputedRef } from 'vue'
import { storeToRefs } from 'pinia'
import { ALL_ACCOUNTS, useAccountsStore } from '../stores/accounts'

/** The accounts a list shows: the selected one, or all of them; and how to name an account in a row. */
export function useListAccounts(): {
  readonly ids: ComputedRef<string[]>
  readonly many: ComputedRef<boolean>
  label(accountId: string): string
} {
  const store = useAccountsStore()
  const { accounts, selection } = storeToRefs(store)
  const ids = computed(() => (selection.value === ALL_ACCOUNTS ? accounts.value.map((a) => a.id) : [selection.value]))
  const many = computed(() => ids.value.length > 1)
  function label(accountId: string): string {
    const account = accounts.value.find((a) => a.id === accountId)
    if (account === undefined) return ''
    try {
      return `@${account.username} on ${new URL(account.baseUrl).host}`
    } catch {
      return `@${account.username}`
    }
  }
  return { ids, many, label }
}
