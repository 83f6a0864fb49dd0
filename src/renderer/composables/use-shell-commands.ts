import { useRouter } from 'vue-router'
import { useCommands } from './use-commands'
import { FAMILIES } from '../navigation'
import { ALL_ACCOUNTS, useAccountsStore } from '../stores/accounts'
import { useAppStore } from '../stores/app'
import { useCommandsStore } from '../stores/commands'
import { useCreateItemStore } from '../stores/create-item'
import { usePreferencesStore } from '../stores/preferences'
import { useSyncStore } from '../stores/sync'

/** The commands the shell always offers: palette, help, theme, sidebar, navigation, accounts. */
export function useShellCommands(): void {
  const router = useRouter()
  const commands = useCommandsStore()
  const preferences = usePreferencesStore()
  const accounts = useAccountsStore()
  const app = useAppStore()
  const sync = useSyncStore()
  const create = useCreateItemStore()
  const signedIn = (): boolean => accounts.accounts.length > 0

  useCommands(
    {
      id: 'palette.toggle',
      title: 'Command palette',
      group: 'General',
      keys: 'mod+k',
      global: true,
      run: () => void (commands.paletteOpen = !commands.paletteOpen),
    },
    {
      id: 'help.shortcuts',
      title: 'Keyboard shortcuts',
      group: 'General',
      keys: '?',
      keywords: 'help keys',
      run: () => void (commands.helpOpen = true),
    },
    {
      id: 'sidebar.toggle',
      title: 'Show or hide the sidebar',
      group: 'View',
      keys: 'mod+b',
      global: true,
      enabled: signedIn,
      run: () => void (preferences.sidebarCollapsed = !preferences.sidebarCollapsed),
    },
    {
      id: 'theme.system',
      title: 'Theme: follow the system',
      group: 'View',
      keywords: 'appearance auto',
      run: () => void (preferences.theme = 'system'),
    },
    {
      id: 'theme.light',
      title: 'Theme: light',
      group: 'View',
      keywords: 'appearance',
      run: () => void (preferences.theme = 'light'),
    },
    {
      id: 'theme.dark',
      title: 'Theme: dark',
      group: 'View',
      keywords: 'appearance night',
      run: () => void (preferences.theme = 'dark'),
    },
    {
      // A page with an item in view binds `c` to commenting on it, which wins (views register later).
      id: 'issue.create',
      title: 'New issue…',
      group: 'Create',
      keys: 'c',
      keywords: 'create add new issue bug report',
      enabled: signedIn,
      run: () => create.newIssue(),
    },
    {
      id: 'merge-request.create',
      title: 'New merge request…',
      group: 'Create',
      keywords: 'create add new mr merge request branch review',
      enabled: signedIn,
      // From All accounts the form asks which account, as the new issue form does.
      run: () => create.newMergeRequest(accounts.selection === ALL_ACCOUNTS ? {} : { accountId: accounts.selection }),
    },
    {
      id: 'nav.home',
      title: 'Go to Home',
      group: 'Navigation',
      keys: 'g h',
      enabled: signedIn,
      run: () => void router.push({ name: 'home' }),
    },
    ...FAMILIES.map((f) => ({
      id: `nav.${f.key}`,
      title: `Go to ${f.label}`,
      group: 'Navigation',
      keys: `g ${f.key2}`,
      keywords: f.resources.join(' '),
      enabled: signedIn,
      run: () => void router.push(f.path),
    })),
    {
      id: 'nav.search',
      title: 'Search issues, merge requests and epics',
      group: 'Navigation',
      keys: '/',
      enabled: signedIn,
      run: () => void router.push({ name: 'search' }),
    },
    {
      id: 'nav.outbox',
      title: 'Go to the outbox (changes not sent yet)',
      group: 'Navigation',
      keywords: 'queue pending conflicts failed',
      enabled: signedIn,
      run: () => void router.push({ name: 'outbox' }),
    },
    {
      id: 'nav.preferences',
      title: 'Preferences',
      group: 'General',
      keys: 'mod+,',
      keywords: 'settings notifications theme sync interval mentions alerts',
      enabled: signedIn,
      run: () => void router.push({ name: 'preferences' }),
    },
    {
      id: 'accounts.add',
      title: 'Add account…',
      group: 'Accounts',
      keywords: 'sign in token login',
      enabled: signedIn,
      run: () => void router.push({ name: 'account-add' }),
    },
    {
      id: 'accounts.manage',
      title: 'Manage accounts',
      group: 'Accounts',
      keywords: 'remove verify sign out',
      enabled: signedIn,
      run: () => void router.push({ name: 'accounts' }),
    },
    {
      id: 'sync.start',
      title: 'Sync now',
      group: 'General',
      keywords: 'refresh fetch update download',
      enabled: signedIn,
      run: async () => {
        await Promise.allSettled(accounts.accounts.map((a) => sync.start(a.id)))
      },
    },
    {
      id: 'server.refresh',
      title: 'Check the local server again',
      group: 'General',
      keywords: 'status reconnect',
      run: () => app.refreshServer(),
    },
    {
      id: 'dev.gallery',
      title: 'Developer: component gallery',
      group: 'Developer',
      enabled: signedIn,
      run: () => void router.push({ name: 'gallery' }),
    },
  )
}
