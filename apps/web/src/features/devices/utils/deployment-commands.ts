/** The placeholder shown in the commands when no fresh key is at hand. */
export const KEY_PLACEHOLDER = '<DEPLOYMENT_KEY>';

/** The platforms a deployment key is rolled out to, in the order the screen shows them. */
export const DEPLOYMENT_TARGETS = ['windows', 'mac', 'linux', 'api'] as const;
export type DeploymentTarget = (typeof DEPLOYMENT_TARGETS)[number];

/** Installer file names of the Palisade client. */
export const CLIENT_FILES = {
  windows: 'PalisadeClient.msi',
  mac: 'PalisadeClient.pkg',
} as const;

/** The preference domain the macOS client reads its settings from (system-wide, as an MDM writes it). */
export const MAC_PREFERENCES = '/Library/Preferences/com.palisade.client';

/** Quotes a value for a POSIX shell (single quotes; a single quote inside becomes '\''). */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The commands that install the client and enrol it with `key` on each platform, pointing at `origin` (the
 * console's own origin, e.g. `https://console.example.com`). With no key, the placeholder stands in.
 * - windows: an msiexec line for Intune (Win32 app install command) or any RMM that runs commands;
 * - mac: a Jamf policy script writing the managed preferences before installing the package;
 * - linux: the install script piped to sh;
 * - api: the call the agent makes, for scripts of one's own.
 */
export function deploymentCommands(origin: string, key: string | null): Record<DeploymentTarget, string> {
  const value = key ?? KEY_PLACEHOLDER;
  const base = origin.replace(/\/+$/, '');
  return {
    windows: `msiexec /i ${CLIENT_FILES.windows} /qn ENROLMENT_KEY=${value} SERVER=${base}`,
    mac: [
      `sudo defaults write ${MAC_PREFERENCES} EnrolmentKey ${shellQuote(value)}`,
      `sudo defaults write ${MAC_PREFERENCES} Server ${shellQuote(base)}`,
      `sudo installer -pkg ${CLIENT_FILES.mac} -target /`,
    ].join('\n'),
    linux: `curl -fsSL ${base}/downloads/linux/install.sh | sudo sh -s -- --key ${shellQuote(value)}`,
    // The JSON stays in single quotes; the hostname and user are spliced in from double-quoted parts.
    api: [
      `curl -X POST ${base}/api/enrol \\`,
      `  -H 'content-type: application/json' \\`,
      `  -d '{"token":${JSON.stringify(value)},"device":{"name":"'"$(hostname)"'","os":"linux"},"username":"'"$PALISADE_USER"'"}'`,
    ].join('\n'),
  };
}
