/**
 * The conformance world's fixtures for issue 11's new families: what the demo lacks of releases,
 * boards, wikis, badges, pipeline schedules, group CI variables and access tokens, made through
 * the API by the administrator. Called by buildConformanceWorld.
 */
import type { ConformanceWorld } from './conformance-world'

/** Builds every family's fixtures. */
export async function forgeFamilies(w: ConformanceWorld): Promise<void> {
  await releases(w)
}

/** A release made with its tag and a link, updated and its link edited; a second one deleted. */
async function releases(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}`
  ids.release = 'conformance-1.0'
  await w.write('POST /projects/:id/releases', `${p}/releases`, {
    tag_name: ids.release,
    ref: ids.defaultBranch,
    description: 'Conformance release',
    assets: { links: [{ name: 'Binary', url: 'https://example.com/bin', direct_asset_path: 'bin/app' }] },
  })
  await w.write('PUT /projects/:id/releases/:tag_name', `${p}/releases/${ids.release}`, { name: 'Conformance 1.0' })
  const links = `${p}/releases/${ids.release}/assets/links`
  const doomed = await w.created('POST /projects/:id/releases/:tag_name/assets/links', links, {
    name: 'Runbook',
    url: 'https://example.com/runbook',
    link_type: 'runbook',
  })
  await w.write('PUT /projects/:id/releases/:tag_name/assets/links/:link_id', `${links}/${doomed}`, { name: 'Ops' })
  await w.write('DELETE /projects/:id/releases/:tag_name/assets/links/:link_id', `${links}/${doomed}`)
  ids.releaseLink = (await w.first(links)).id as number
  await w.write('POST /projects/:id/releases', `${p}/releases`, { tag_name: 'conformance-0.1', ref: ids.defaultBranch })
  await w.write('DELETE /projects/:id/releases/:tag_name', `${p}/releases/conformance-0.1`)
}
