// @ts-check
/*
 * electron-builder's configuration for `npm run dist` (docs/packaging.md): the installers of
 * the desktop app for the platform it runs on. What depends on the machine that builds
 * (signing certificates, notarization credentials, the update feed) comes from its
 * environment, so the file holds no secret and a build without them still succeeds, unsigned
 * and without updates.
 */

/** Linux libraries Electron needs, then git, which the embedded Burrow Server runs for every repository. */
const DEB_DEPENDS = [
  'libgtk-3-0 | libgtk-3-0t64',
  'libnotify4',
  'libnss3',
  'libxss1',
  'libxtst6',
  'xdg-utils',
  'libatspi2.0-0 | libatspi2.0-0t64',
  'libuuid1',
  'libsecret-1-0',
  'git',
]

/**
 * The release feed electron-updater reads (a "generic" provider: a URL serving
 * latest*.yml and the installers), from BURROW_UPDATE_FEED_URL at build time. Without it
 * electron-builder writes no app-update.yml and the packaged app never checks for updates.
 * @param {Record<string, string | undefined>} env
 */
function updateFeed(env) {
  const url = env.BURROW_UPDATE_FEED_URL?.trim()
  if (!url) return null
  if (!/^https:\/\//.test(url)) throw new Error(`BURROW_UPDATE_FEED_URL must be an https:// URL, got ${url}`)
  return [{ provider: 'generic', url, channel: env.BURROW_UPDATE_CHANNEL?.trim() || 'latest' }]
}

/**
 * The configuration for an environment (the builder's own is `process.env`).
 * @param {Record<string, string | undefined>} env
 * @returns {import('app-builder-lib').Configuration}
 */
export function builderConfig(env) {
  return {
    appId: 'dev.burrow.desktop',
    productName: 'Burrow',
    copyright: 'Copyright © Burrow contributors',
    directories: { output: 'dist' },
    // The built app (electron-vite's out/main, out/preload, out/renderer and the compiled
    // server in out/server) and the window and tray icons it loads at run time.
    files: [
      'package.json',
      'out/main/**',
      'out/preload/**',
      'out/renderer/**',
      'out/server/**',
      'resources/icon.png',
      'resources/tray.png',
      'resources/tray@2x.png',
      '!**/*.map',
    ],
    asar: true,
    // A native addon (better-sqlite3, the keyring binding) cannot be loaded from inside the archive.
    asarUnpack: ['**/*.node'],
    // Rebuilds the production dependencies' native addons for Electron's ABI and the target arch
    // (better-sqlite3; @napi-rs/keyring is N-API and ships a build per platform).
    npmRebuild: true,
    buildDependenciesFromSource: false,
    icon: 'resources/icon-1024.png',
    protocols: [{ name: 'Burrow link', schemes: ['burrow'] }],
    mac: {
      target: [
        { target: 'dmg', arch: ['arm64', 'x64'] },
        { target: 'zip', arch: ['arm64', 'x64'] },
      ],
      category: 'public.app-category.developer-tools',
      hardenedRuntime: true,
      gatekeeperAssess: false,
      entitlements: 'resources/entitlements.mac.plist',
      entitlementsInherit: 'resources/entitlements.mac.plist',
      // Signing reads CSC_LINK and CSC_KEY_PASSWORD; notarization reads APPLE_ID,
      // APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID (or APPLE_API_KEY, APPLE_API_KEY_ID and
      // APPLE_API_ISSUER, or APPLE_KEYCHAIN_PROFILE) and is skipped when none is set.
      notarize: true,
    },
    win: {
      target: [{ target: 'nsis', arch: ['x64'] }],
      // Signing reads WIN_CSC_LINK and WIN_CSC_KEY_PASSWORD (or CSC_LINK); electron-updater
      // checks an update's signature against the publisher of the running app.
      verifyUpdateCodeSignature: true,
    },
    nsis: {
      // Per-user: installs into the user's AppData without asking for administrator rights.
      oneClick: true,
      perMachine: false,
      allowElevation: false,
      deleteAppDataOnUninstall: false,
      createDesktopShortcut: true,
      createStartMenuShortcut: true,
    },
    linux: {
      target: ['AppImage', 'deb'],
      executableName: 'burrow',
      category: 'Development',
      synopsis: 'Offline-first desktop client for GitLab-compatible forges',
      maintainer: 'Burrow contributors',
      vendor: 'Burrow contributors',
    },
    deb: { depends: DEB_DEPENDS, priority: 'optional' },
    publish: updateFeed(env),
  }
}

export default builderConfig(process.env)
