import { Alert, Box, Button, Image, List, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import type { DeviceOs, DeviceWireguard } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessageKey } from '../../../lib/api-client';
import { serverFieldErrors } from '../../../lib/form-errors';
import { saveBlob } from '../../../lib/save-file';
import { useEnrol } from '../api/enrolment';
import { browserPlatform } from '../utils/device-name';
import { configFileName, configQrCode, fillPrivateKey, generateKeyPair } from '../utils/wireguard-config';
import { EnrolCard } from './enrol-card';
import { useOsLabels } from './os-label';

/** The systems the standard WireGuard apps run on. */
const WIREGUARD_OS = ['windows', 'mac', 'linux', 'ios', 'android'] as const satisfies readonly DeviceOs[];
type WireguardOs = (typeof WIREGUARD_OS)[number];

const OS_BY_PLATFORM: Record<string, WireguardOs> = {
  Windows: 'windows',
  macOS: 'mac',
  Linux: 'linux',
  iOS: 'ios',
  Android: 'android',
};

/** A device enrolled with a key made here: its complete configuration, held in memory only. */
export interface WireguardDevice {
  name: string;
  tunnel: DeviceWireguard;
  /** The server's text with the private key filled in. */
  config: string;
  /** The configuration as a QR code; null when it could not be drawn. */
  qrCode: string | null;
}

/** Whether a failure means the token itself is no good (as the page's other ways judge it). */
function isInvalidToken(error: unknown): boolean {
  return error instanceof ApiError && [400, 404, 410].includes(error.status);
}

/** Whether a 400 names what is wrong with the device rather than with the token. */
function isOnDevice(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    Boolean(error.details?.some((detail) => !/^(body\.)?token$/.test(detail.path)))
  );
}

/**
 * Enrols a device for the standard WireGuard apps: a key pair is made in this browser, the public key is sent
 * with the device's name and system, and the answer's configuration gets the private key.
 */
export function WireguardEnrol({
  token,
  onEnrolled,
  onInvalid,
}: {
  token: string;
  onEnrolled: (device: WireguardDevice) => void;
  onInvalid: () => void;
}) {
  const { t } = useTranslation();
  const osLabels = useOsLabels();
  const enrol = useEnrol();
  const [name, setName] = useState(() => t('devices.enrol.wireguard.defaultName', 'WireGuard device'));
  const [os, setOs] = useState<WireguardOs>(
    () =>
      OS_BY_PLATFORM[browserPlatform(typeof navigator === 'undefined' ? '' : navigator.userAgent).os] ??
      'windows',
  );
  const [nameError, setNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const failed = t('devices.enrol.wireguard.failed', 'The configuration could not be created. Try again.');

  async function create() {
    const deviceName = name.trim();
    if (!deviceName) {
      setNameError(t('validation.required', 'This field is required.'));
      return;
    }
    setNameError(null);
    setFailure(null);
    setIsBusy(true);
    try {
      // Loaded only now; the private key stays in this function's memory and the device's download.
      const keys = await generateKeyPair();
      const enrolled = await enrol.mutateAsync({
        token,
        device: { name: deviceName, os },
        publicKey: keys.publicKey,
      });
      if (!enrolled.wireguard) {
        setFailure(
          t(
            'devices.enrol.wireguard.noTunnel',
            'The device was enrolled, but the server sent no WireGuard settings for it. Ask your administrator.',
          ),
        );
        return;
      }
      const config = fillPrivateKey(enrolled.wireguard.config, keys.privateKey);
      const qrCode = await configQrCode(config).catch(() => null);
      onEnrolled({ name: deviceName, tunnel: enrolled.wireguard, config, qrCode });
    } catch (error) {
      if (isOnDevice(error)) {
        const fields = serverFieldErrors(error, t);
        if (fields['device.name']) setNameError(fields['device.name']);
        setFailure(Object.values(fields)[0] ?? failed);
      } else if (isInvalidToken(error)) {
        onInvalid();
      } else {
        setFailure(t(errorMessageKey(error), { defaultValue: failed }));
      }
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby="enrol-wireguard">
      <Title order={2} size="h5" id="enrol-wireguard">
        {t('devices.enrol.wireguard.title', 'Download a WireGuard configuration')}
      </Title>
      <Text size="sm" c="dimmed">
        {t(
          'devices.enrol.wireguard.hint',
          'For devices that use the standard WireGuard apps. The key is made in this browser and never leaves it.',
        )}
      </Text>
      <TextInput
        label={t('devices.enrol.wireguard.name', 'Device name')}
        value={name}
        maxLength={100}
        required
        error={nameError}
        onChange={(event) => setName(event.currentTarget.value)}
      />
      <Select
        label={t('devices.enrol.wireguard.os', 'Operating system')}
        data={WIREGUARD_OS.map((value) => ({ value, label: osLabels[value] }))}
        value={os}
        allowDeselect={false}
        onChange={(value) => {
          if (value) setOs(value as WireguardOs);
        }}
      />
      {failure ? (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      ) : null}
      <Button fullWidth variant="light" loading={isBusy} onClick={() => void create()}>
        {t('devices.enrol.wireguard.create', 'Create the configuration')}
      </Button>
    </Stack>
  );
}

/** The enrolled device's configuration: the one chance to save it, as a file or a QR code. */
export function WireguardReady({ device, tenant }: { device: WireguardDevice; tenant: string }) {
  const { t } = useTranslation();
  const fileName = configFileName(device.name);
  const gateways = device.tunnel.peers.map((peer) => peer.name);
  return (
    <EnrolCard
      title={t('devices.enrol.wireguard.readyTitle', 'Your WireGuard configuration is ready')}
      description={t(
        'devices.enrol.wireguard.readyIntro',
        '“{{name}}” is enrolled for {{tenant}}. Import the configuration into the WireGuard app.',
        { name: device.name, tenant },
      )}
    >
      <Alert color="yellow" title={t('devices.enrol.wireguard.onlyNowTitle', 'Save it now')}>
        {t(
          'devices.enrol.wireguard.onlyNow',
          'Its private key was made on this device and is shown only now; it is not stored anywhere. If you close this page without saving it, ask for a new link and enrol again.',
        )}
      </Alert>
      <Box component="dl" m={0} style={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '6px 16px' }}>
        <Text component="dt" size="sm" c="dimmed">
          {t('devices.enrol.wireguard.address', 'Tunnel address')}
        </Text>
        <Text component="dd" size="sm" fw={500} m={0}>
          {device.tunnel.address}
        </Text>
        <Text component="dt" size="sm" c="dimmed">
          {t('devices.enrol.wireguard.gateways', 'Gateways')}
        </Text>
        <Box component="dd" m={0}>
          {gateways.length ? (
            <List size="sm" fw={500} listStyleType="none" spacing={2} p={0}>
              {gateways.map((gateway, index) => (
                // Names may repeat; the order is the server's.
                // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
                <List.Item key={`${gateway}-${index}`}>{gateway}</List.Item>
              ))}
            </List>
          ) : (
            <Text size="sm" fw={500}>
              {t('devices.enrol.wireguard.noGateways', 'None yet')}
            </Text>
          )}
        </Box>
      </Box>
      <Button fullWidth onClick={() => saveBlob(new Blob([device.config], { type: 'text/plain' }), fileName)}>
        {t('devices.enrol.wireguard.download', 'Download {{file}}', { file: fileName })}
      </Button>
      <Stack gap="xs" component="section" aria-labelledby="enrol-wireguard-qr">
        <Title order={2} size="h5" id="enrol-wireguard-qr">
          {t('devices.enrol.wireguard.qrTitle', 'On a phone or tablet')}
        </Title>
        {device.qrCode ? (
          <>
            <Text size="sm" c="dimmed">
              {t(
                'devices.enrol.wireguard.qrHint',
                'In the WireGuard app, add a tunnel from a QR code and scan this one.',
              )}
            </Text>
            <Image
              src={device.qrCode}
              alt={t('devices.enrol.wireguard.qrAlt', 'QR code of the WireGuard configuration')}
              w={240}
              h={240}
              mx="auto"
            />
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {t(
              'devices.enrol.wireguard.qrFailed',
              'The QR code could not be drawn; download the file and import it instead.',
            )}
          </Text>
        )}
      </Stack>
    </EnrolCard>
  );
}
