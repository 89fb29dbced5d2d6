import { describe, expect, it } from 'vitest';
import { deploymentCommands, KEY_PLACEHOLDER, shellQuote } from './deployment-commands';

describe('deploymentCommands', () => {
  const key = 'pdk_4fJ9kQ2xLm8Zr7Tn3Wc5Yb1Hs6Vd0Ae';

  it('fills the key and the origin into every command', () => {
    const commands = deploymentCommands('https://console.example.com/', key);
    expect(commands.windows).toBe(
      `msiexec /i PalisadeClient.msi /qn ENROLMENT_KEY=${key} SERVER=https://console.example.com`,
    );
    expect(commands.mac.split('\n')).toEqual([
      `sudo defaults write /Library/Preferences/com.palisade.client EnrolmentKey '${key}'`,
      `sudo defaults write /Library/Preferences/com.palisade.client Server 'https://console.example.com'`,
      'sudo installer -pkg PalisadeClient.pkg -target /',
    ]);
    expect(commands.linux).toBe(
      `curl -fsSL https://console.example.com/downloads/linux/install.sh | sudo sh -s -- --key '${key}'`,
    );
    expect(commands.api).toContain('curl -X POST https://console.example.com/api/enrol');
    expect(commands.api).toContain(`"token":"${key}"`);
  });

  it('sends a JSON body the enrol endpoint takes, with the hostname and user spliced in by the shell', () => {
    const { api } = deploymentCommands('https://c.example', key);
    const body = /-d '(.*)'$/m.exec(api)?.[1] ?? '';
    // What sh makes of '…'"$(hostname)"'…': the quoted parts joined around the substitutions.
    const expanded = body
      .replace(`'"$(hostname)"'`, 'laptop-7')
      .replace(`'"$PALISADE_USER"'`, 'ann@acme.example');
    expect(JSON.parse(expanded)).toEqual({
      token: key,
      device: { name: 'laptop-7', os: 'linux' },
      username: 'ann@acme.example',
    });
  });

  it('shows the placeholder when no key is at hand', () => {
    const commands = deploymentCommands('https://c.example', null);
    for (const command of Object.values(commands)) expect(command).toContain(KEY_PLACEHOLDER);
  });
});

describe('shellQuote', () => {
  it('keeps single quotes inside the value', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
