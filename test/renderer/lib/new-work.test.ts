import { describe, expect, it } from 'vitest'
import {
  issueBranchName,
  issueIidOfBranch,
  isDraftTitle,
  mergeRequestProposal,
  parameterize,
  withDraft,
} from '../../../src/renderer/lib/new-work'

describe('issue branch names (GitLab’s 12-title-words)', () => {
  it('joins the iid and the title’s words, accents dropped and punctuation a separator', () => {
    expect(issueBranchName({ iid: 12, title: 'Café crashes: on “rotate”!' })).toBe('12-cafe-crashes-on-rotate')
    expect(parameterize('  A  b__c--d ')).toBe('a-b__c-d')
  })

  it('is at most 100 characters and never ends in a dash', () => {
    const name = issueBranchName({ iid: 7, title: `${'a'.repeat(97)} bbb` })
    expect(name.length).toBeLessThanOrEqual(100)
    expect(name.endsWith('-')).toBe(false)
  })

  it('keeps a confidential issue’s title out of the repository', () => {
    expect(issueBranchName({ iid: 3, title: 'Secret leak', confidential: true })).toBe('3-confidential-issue')
  })

  it('finds the issue of a branch made that way', () => {
    expect(issueIidOfBranch('12-cafe-crashes')).toBe(12)
    expect(issueIidOfBranch('feature-12')).toBeNull()
  })
})

describe('merge request proposals', () => {
  it('an issue’s branch: Draft: Resolve "title", closing the issue', () => {
    expect(
      mergeRequestProposal({ sourceBranch: '12-x', commits: [], issue: { iid: 12, title: 'Maps crash' } }),
    ).toEqual({ title: 'Draft: Resolve "Maps crash"', description: 'Closes #12' })
  })

  it('one commit: its title and the rest of its message (and Closes for a numbered branch)', () => {
    expect(
      mergeRequestProposal({
        sourceBranch: '4-fix',
        commits: [{ title: 'Fix rotation', message: 'Fix rotation\n\nThe map kept its old size.' }],
      }),
    ).toEqual({ title: 'Fix rotation', description: 'The map kept its old size.\n\nCloses #4' })
  })

  it('several commits: the branch name made readable', () => {
    const commits = [
      { title: 'a', message: 'a' },
      { title: 'b', message: 'b' },
    ]
    expect(mergeRequestProposal({ sourceBranch: 'offline-maps_v2', commits })).toEqual({
      title: 'Offline maps v2',
      description: '',
    })
  })

  it('adds and removes the Draft: prefix once', () => {
    expect(withDraft('Fix', true)).toBe('Draft: Fix')
    expect(withDraft('Draft: Fix', true)).toBe('Draft: Fix')
    expect(withDraft('[Draft] Fix', false)).toBe('Fix')
    expect(isDraftTitle('Draft: x')).toBe(true)
    expect(isDraftTitle('Drafting x')).toBe(false)
  })
})
