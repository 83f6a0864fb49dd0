import { describe, expect, it } from 'vitest'
import {
  keychainName,
  keychainPlatform,
  passphraseStrength,
  storageState,
} from '../../../src/renderer/lib/secret-storage'

describe('passphraseStrength', () => {
  it('counts the characters still missing below the 8 core requires', () => {
    expect(passphraseStrength('')).toMatchObject({ level: 'too-short', hint: 'Use at least 8 characters.' })
    expect(passphraseStrength('abcde')).toMatchObject({
      level: 'too-short',
      score: 0,
      hint: 'Use at least 8 characters (3 more).',
    })
  })

  it('rates common passwords, keyboard and alphabet runs and repeated blocks as weak', () => {
    for (const weak of [
      'password',
      'Password1',
      'iloveyou2024',
      '12345678',
      'qwertyuiop',
      'aaaaaaaaaaaa',
      'abcabcabcabc',
      'xqzvbnlkjhgfdsapoiuy',
    ]) {
      expect(passphraseStrength(weak).level, weak).toBe('weak')
    }
  })

  it('rates one word dressed up with digits and symbols lower than several plain words', () => {
    expect(passphraseStrength('Sunflower-42!').level).toBe('weak')
    expect(passphraseStrength('Tr0ub4dor&3').level).toBe('fair')
    expect(passphraseStrength('blue tiger lamp').level).toBe('fair')
    expect(passphraseStrength('correct horse battery staple')).toMatchObject({ level: 'strong', score: 3 })
  })

  it('rates a long random string as strong', () => {
    expect(passphraseStrength('x7#Kp2!qZ9aW3$').level).toBe('strong')
  })
})

describe('where sign-ins are saved', () => {
  it('names the keychain of the OS the window runs on', () => {
    expect(keychainName(keychainPlatform({ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)' }))).toBe(
      'the macOS Keychain',
    )
    expect(keychainName(keychainPlatform({ userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' }))).toBe(
      'Windows Credential Manager',
    )
    expect(keychainName(keychainPlatform({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' }))).toBe(
      'the Secret Service (GNOME Keyring or KWallet)',
    )
  })

  it('reads core’s status as one of the four states the UI shows', () => {
    const file = (unlocked: boolean) => ({ exists: true, unlocked })
    expect(
      storageState({
        kind: 'keychain',
        available: true,
        reason: null,
        encryptedFile: { exists: false, unlocked: false },
      }),
    ).toBe('keychain')
    expect(
      storageState({
        kind: 'keychain',
        available: false,
        reason: 'no Secret Service',
        encryptedFile: { exists: false, unlocked: false },
      }),
    ).toBe('keychain-unavailable')
    expect(storageState({ kind: 'encrypted-file', available: true, reason: null, encryptedFile: file(true) })).toBe(
      'file-unlocked',
    )
    expect(
      storageState({ kind: 'encrypted-file', available: false, reason: 'locked', encryptedFile: file(false) }),
    ).toBe('file-locked')
  })
})
