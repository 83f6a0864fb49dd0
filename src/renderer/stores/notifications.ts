import { defineStore } from 'pinia'
import { computed, shallowRef } from 'vue'
import type { NotifyAnnouncement } from '../../shared/ipc/notify'
import { useBridge } from '../bridge'
import { usePreferencesStore } from './preferences'
import { useToastsStore } from './toasts'

/** One announcement in the inbox. */
export interface InboxEntry {
  readonly announcement: NotifyAnnouncement
  /** When it arrived here (ISO 8601). */
  readonly at: string
  readonly read: boolean
}

/** The inbox keeps this many, newest first. */
const KEPT = 50

export type DesktopPermission = 'granted' | 'denied' | 'default' | 'unsupported'

/** The page's Web Notifications API, when it has one (browser mode in a browser that offers it). */
function webNotifications(): typeof Notification | null {
  return typeof window !== 'undefined' && 'Notification' in window ? window.Notification : null
}

/**
 * What core's to-do and alert watcher announces (`notify:did-announce`), as the page shows it:
 * a toast with Open, the in-app inbox with its unread badge, and — in browser mode, while the
 * `notifications` preference is on and the user allowed it — a Web Notification. Electron
 * raises native notifications from the main process (tray and Notification), so the page does
 * not add a second one there. Core announces each item once and only the topics the account's
 * preferences let through; the inbox also keeps one entry per key.
 */
export const useNotificationsStore = defineStore('notifications', () => {
  const bridge = useBridge()
  const toasts = useToastsStore()
  const preferences = usePreferencesStore()
  const inbox = shallowRef<readonly InboxEntry[]>([])
  const permission = shallowRef<DesktopPermission>(webNotifications()?.permission ?? 'unsupported')
  /** The page's router push (the shell layout gives it), so an opened announcement shows its item. */
  let show: (route: string) => void = () => undefined

  bridge.on('notify:did-announce', (announcement) => receive(announcement))

  function receive(announcement: NotifyAnnouncement): void {
    if (
      inbox.value.some(
        (e) => e.announcement.key === announcement.key && e.announcement.accountId === announcement.accountId,
      )
    )
      return
    inbox.value = [{ announcement, at: new Date().toISOString(), read: false }, ...inbox.value].slice(0, KEPT)
    toasts.show('info', announcement.count > 1 ? announcement.title : `${announcement.title}: ${announcement.body}`, {
      label: 'Open',
      run: () => open(announcement),
    })
    if (bridge.transport === 'websocket') notifyDesktop(announcement)
  }

  function notifyDesktop(announcement: NotifyAnnouncement): void {
    const Api = webNotifications()
    if (Api === null || Api.permission !== 'granted' || !preferences.values.notifications) return
    const note = new Api(announcement.title, { body: announcement.body, tag: announcement.key })
    note.onclick = () => {
      window.focus()
      open(announcement)
      note.close()
    }
  }

  /** Shows the announced item (or list) and marks it read. */
  function open(announcement: NotifyAnnouncement): void {
    inbox.value = inbox.value.map((e) => (e.announcement === announcement ? { ...e, read: true } : e))
    show(announcement.route)
  }

  function markAllRead(): void {
    if (inbox.value.some((e) => !e.read)) inbox.value = inbox.value.map((e) => (e.read ? e : { ...e, read: true }))
  }

  /** Asks the browser for permission to notify; call it from a user's click (browsers refuse otherwise). */
  async function requestPermission(): Promise<void> {
    const Api = webNotifications()
    if (Api === null) return
    permission.value = await Api.requestPermission()
  }

  function setRouter(push: (route: string) => void): void {
    show = push
  }

  const unread = computed(() => inbox.value.filter((e) => !e.read).length)
  return { inbox, unread, permission, receive, open, markAllRead, requestPermission, setRouter }
})
