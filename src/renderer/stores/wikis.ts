import { defineStore } from 'pinia'
import type { WikiFormat, WikiPage } from '../../shared/api/wiki'
import { useBridge } from '../bridge'

/** A project's wiki as read: from the server, or its saved copy when offline (`stale`). */
export interface ProjectWiki {
  readonly pages: readonly WikiPage[]
  readonly stale: boolean
}

/** What the editor saves. */
export interface WikiPageFields {
  readonly title: string
  readonly content: string
  readonly format: WikiFormat
}

/**
 * Project wikis: every page with its content in one read (so the saved copy holds the whole wiki
 * for offline reading), and the page writes, online as GitLab's Wikis API.
 */
export const useWikisStore = defineStore('wikis', () => {
  const bridge = useBridge()
  const wikiPath = (projectId: number): string => `/projects/${projectId}/wikis`

  async function load(accountId: string, projectId: number): Promise<ProjectWiki> {
    const answer = await bridge.request('api:get', accountId, wikiPath(projectId), { with_content: true })
    return { pages: Array.isArray(answer.body) ? (answer.body as WikiPage[]) : [], stale: answer.stale }
  }

  /** Creates a page (`slug` null) or changes one; resolves to the page as the server has it. */
  async function save(
    accountId: string,
    projectId: number,
    slug: string | null,
    fields: WikiPageFields,
  ): Promise<WikiPage> {
    const answer = await bridge.request('api:send', accountId, {
      method: slug === null ? 'POST' : 'PUT',
      path: slug === null ? wikiPath(projectId) : `${wikiPath(projectId)}/${encodeURIComponent(slug)}`,
      body: { title: fields.title, content: fields.content, format: fields.format },
      invalidates: [wikiPath(projectId)],
    })
    return answer.body as WikiPage
  }

  async function remove(accountId: string, projectId: number, slug: string): Promise<void> {
    await bridge.request('api:send', accountId, {
      method: 'DELETE',
      path: `${wikiPath(projectId)}/${encodeURIComponent(slug)}`,
      invalidates: [wikiPath(projectId)],
    })
  }

  return { load, save, remove }
})
