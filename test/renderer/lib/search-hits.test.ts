import { describe, expect, it } from 'vitest'
import { matchingProjects } from '../../../src/renderer/lib/search-hits'
import type { Project } from '../../../src/renderer/lib/items'

/* The projects on this computer a search names: by path, by name, by words of either. */

const project = (id: number, path: string, name: string, synced = true): Project => ({
  id,
  path_with_namespace: path,
  name: name.split(' / ').at(-1) ?? name,
  name_with_namespace: name,
  burrow_synced: synced,
})
const projects = [
  project(1, 'kestrel/field-app', 'Kestrel / Field App'),
  project(2, 'kestrel/api', 'Kestrel / API'),
  project(3, 'harbour/field-notes', 'Harbour / Field Notes'),
  project(4, 'kestrel/field-app-legacy', 'Kestrel / Field App Legacy', false),
]
const ids = (query: string): number[] => matchingProjects(projects, query).map((p) => p.id)

describe('projects named by a search', () => {
  it('a full path finds its project first, then the paths it begins', () => {
    expect(ids('kestrel/field-app')).toEqual([1])
    expect(ids('Kestrel/Field-App')).toEqual([1])
  })

  it('a part of a path or words of a name find every project holding them, the path’s beginning first', () => {
    expect(ids('field')).toEqual([1, 3])
    expect(ids('kestrel')).toEqual([2, 1])
    expect(ids('field app')).toEqual([1])
    expect(ids('Field Notes')).toEqual([3])
  })

  it('a project not synced to this computer is not offered, and words that are no project find none', () => {
    expect(ids('legacy')).toEqual([])
    expect(ids('rotate the phone')).toEqual([])
    expect(ids('   ')).toEqual([])
  })

  it('a reference is not a project search', () => {
    expect(ids('kestrel/field-app#12')).toEqual([])
    expect(ids('#12')).toEqual([])
  })
})
