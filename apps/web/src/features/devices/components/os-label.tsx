import { Group, Text } from '@mantine/core';
import type { DeviceOs } from '@palisade/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of the OS icons: a size in pixels. */
interface OsIconProps {
  size?: number;
}

function Svg({ size = 16, children }: OsIconProps & { children: ReactNode }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

/** One drawing per kind of system; the text next to it names the system, so the icons are decorative. */
const ICONS: Record<DeviceOs, ReactNode> = {
  // Four window panes.
  windows: (
    <>
      <path d="M3 5.5 10.5 4.5v7H3z" />
      <path d="M13 4.2 21 3v8.5h-8z" />
      <path d="M3 13h7.5v7L3 19z" />
      <path d="M13 13h8v8l-8-1.2z" />
    </>
  ),
  // A laptop.
  mac: (
    <>
      <rect x="4" y="5" width="16" height="11" rx="1.5" />
      <path d="M2 19h20" />
    </>
  ),
  // A terminal prompt.
  linux: (
    <>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="m7 9 3 3-3 3" />
      <path d="M12 15h5" />
    </>
  ),
  // A phone with a home indicator.
  ios: (
    <>
      <rect x="7" y="2.5" width="10" height="19" rx="2" />
      <path d="M11 18.5h2" />
    </>
  ),
  // The robot head with antennae.
  android: (
    <>
      <path d="M5 16a7 7 0 0 1 14 0z" />
      <path d="m8 9.5-1.5-2.5M16 9.5l1.5-2.5" />
      <circle cx="9.5" cy="13" r=".6" />
      <circle cx="14.5" cy="13" r=".6" />
    </>
  ),
  // A browser window.
  chrome: (
    <>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M3 9h18" />
      <path d="M6.5 6.5h.01M9 6.5h.01" />
    </>
  ),
  // Gateways: a box with aerials.
  cgw: (
    <>
      <rect x="3" y="13" width="18" height="7" rx="1.5" />
      <path d="M7 13V8M17 13V8M7 16.5h.01M10.5 16.5h.01" />
    </>
  ),
  cgwr: (
    <>
      <rect x="3" y="13" width="18" height="7" rx="1.5" />
      <path d="M7 13V8M17 13V8M7 16.5h.01M10.5 16.5h.01" />
    </>
  ),
  lgw: (
    <>
      <rect x="3" y="13" width="18" height="7" rx="1.5" />
      <path d="M12 13V6M7 16.5h.01M10.5 16.5h.01" />
    </>
  ),
  // Unknown: a dashed square.
  none: <rect x="4" y="4" width="16" height="16" rx="2" strokeDasharray="3 3" />,
};

/** The translated name of each operating-system type of spec §3. */
export function useOsLabels(): Record<DeviceOs, string> {
  const { t } = useTranslation();
  return {
    windows: t('devices.os.windows', 'Windows'),
    mac: t('devices.os.mac', 'macOS'),
    linux: t('devices.os.linux', 'Linux'),
    ios: t('devices.os.ios', 'iOS'),
    android: t('devices.os.android', 'Android'),
    chrome: t('devices.os.chrome', 'Browser'),
    cgw: t('devices.os.cgw', 'Cloud gateway'),
    cgwr: t('devices.os.cgwr', 'Cloud gateway (router)'),
    lgw: t('devices.os.lgw', 'Local gateway'),
    none: t('devices.os.none', 'Unknown'),
  };
}

/** An operating system as an icon and its name. */
export function OsLabel({ os }: { os: DeviceOs }) {
  const labels = useOsLabels();
  return (
    <Group gap={6} wrap="nowrap" component="span" c="var(--mantine-color-text)">
      <Svg>{ICONS[os]}</Svg>
      <Text size="sm" span>
        {labels[os]}
      </Text>
    </Group>
  );
}
