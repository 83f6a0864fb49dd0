import { describe, expect, it } from 'vitest'
import { stripJsonFormat } from '../../src/server/platform/http/format'

describe('stripJsonFormat', () => {
  it.each([
    ['/api/v4/projects.json', '/api/v4/projects'],
    ['/api/v4/users/1.json?with_custom_attributes=true', '/api/v4/users/1?with_custom_attributes=true'],
    ['/api/v4/projects/7/members/all.json', '/api/v4/projects/7/members/all'],
    ['/api/v4/users/alice.json', '/api/v4/users/alice'],
  ])('drops the format suffix of %s', (url, expected) => {
    expect(stripJsonFormat(url)).toBe(expected)
  })

  it.each([
    '/api/v4/projects/7/repository/files/package.json?ref=main',
    '/api/v4/projects/7/repository/branches/release.json',
    '/api/v4/projects/7/protected_branches/main.json',
    '/api/v4/projects/group%2Fproject.json',
    '/group/project.json',
    '/api/v4/projects?search=x.json',
  ])('keeps %s, whose last segment may really end in .json', (url) => {
    expect(stripJsonFormat(url)).toBe(url)
  })
})
