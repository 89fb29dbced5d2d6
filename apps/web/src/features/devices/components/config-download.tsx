import { Alert, Badge, Button, Group, Image, PasswordInput, Stack, Text, Title } from '@mantine/core';
import type { DeviceConfigDownload, DeviceDetail } from '@palisade/contracts';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RelativeTime } from '../../../components/ui/relative-time';
import { saveBlob } from '../../../lib/save-file';
import { useDownloadDeviceConfig } from '../api/download-device-config';
import { configFileName, configQrCode, fillPrivateKey, publicKeyOf } from '../utils/wireguard-config';

/** "Configuration outdated — download again": the badge the list and the page show for such a device. */
export function ConfigOutdatedBadge() {
  const { t } = useTranslation();
  return (
    <Badge color="yellow" variant="light" radius="sm">
      {t('devices.config.outdatedBadge', 'Configuration outdated')}
    </Badge>
  );
}

/** Split or full tunnel, as the policies that apply to the device make it. */
export function TunnelModeBadge({ fullTunnel }: { fullTunnel: boolean }) {
  const { t } = useTranslation();
  return fullTunnel ? (
    <Badge color="blue" variant="light" radius="sm">
      {t('devices.config.fullTunnel', 'Full tunnel')}
    </Badge>
  ) : (
    <Badge color="gray" variant="light" radius="sm">
      {t('devices.config.splitTunnel', 'Split tunnel')}
    </Badge>
  );
}

type KeyCheck = 'empty' | 'checking' | 'matches' | 'wrong';

/**
 * The configuration handed out again: a file and, once the device's private key is pasted, a QR code. The key is
 * checked against the device's public key and filled in here, in this browser; it is sent nowhere and kept
 * nowhere (the server never had it: the device, or the browser that enrolled it, made it).
 */
function DownloadedConfig({ device, download }: { device: DeviceDetail; download: DeviceConfigDownload }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [privateKey, setPrivateKey] = useState('');
  const [check, setCheck] = useState<KeyCheck>('empty');
  const [qrCode, setQrCode] = useState<string | null>(null);
  const [qrFailed, setQrFailed] = useState(false);
  const fileName = configFileName(device.name);

  useEffect(() => {
    const key = privateKey.trim();
    setQrCode(null);
    setQrFailed(false);
    if (!key) {
      setCheck('empty');
      return;
    }
    let isCurrent = true;
    setCheck('checking');
    void publicKeyOf(key).then(async (publicKey) => {
      if (!isCurrent) return;
      if (publicKey !== download.publicKey) {
        setCheck('wrong');
        return;
      }
      setCheck('matches');
      const code = await configQrCode(fillPrivateKey(download.config, key)).catch(() => null);
      if (!isCurrent) return;
      if (code) setQrCode(code);
      else setQrFailed(true);
    });
    return () => {
      isCurrent = false;
    };
  }, [privateKey, download]);

  const complete = check === 'matches' ? fillPrivateKey(download.config, privateKey.trim()) : null;

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId}>
        {t('devices.config.readyTitle', 'The current configuration')}
      </Title>
      <PasswordInput
        label={t('devices.config.privateKey', 'Private key of this device')}
        description={t(
          'devices.config.privateKeyHint',
          'The PrivateKey line of its current configuration (in the WireGuard app: edit the tunnel). It is checked and filled in here, in this browser, and sent nowhere.',
        )}
        value={privateKey}
        autoComplete="off"
        spellCheck={false}
        error={
          check === 'wrong'
            ? t('devices.config.wrongKey', 'This is not the private key of this device.')
            : undefined
        }
        onChange={(event) => setPrivateKey(event.currentTarget.value)}
      />
      {complete === null ? (
        <Text size="sm" c="dimmed">
          {t(
            'devices.config.withoutKey',
            'Without the key the file keeps a placeholder in its PrivateKey line: replace it before importing. The QR code needs the key.',
          )}
        </Text>
      ) : null}
      <Group>
        <Button
          onClick={() => saveBlob(new Blob([complete ?? download.config], { type: 'text/plain' }), fileName)}
        >
          {t('devices.config.downloadFile', 'Download {{file}}', { file: fileName })}
        </Button>
      </Group>
      {qrCode ? (
        <Stack gap="xs" align="center">
          <Text size="sm" c="dimmed">
            {t(
              'devices.config.qrHint',
              'In the WireGuard app on a phone or tablet, add a tunnel from a QR code and scan this one.',
            )}
          </Text>
          <Image
            src={qrCode}
            alt={t('devices.config.qrAlt', 'QR code of the WireGuard configuration of {{name}}', {
              name: device.name,
            })}
            w={240}
            h={240}
          />
        </Stack>
      ) : null}
      {qrFailed ? (
        <Text size="sm" c="dimmed">
          {t(
            'devices.config.qrFailed',
            'The QR code could not be drawn; download the file and import it instead.',
          )}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * A device's configuration for the standard WireGuard apps on its page: whether the one handed out last is still
 * current ("configuration outdated — download again" after routes or gateways changed), split or full tunnel,
 * and — for an administrator who may change devices — the current one to download again, as a file or a QR code.
 */
export function ConfigDownloadPanel({
  device,
  tenant,
  canDownload,
}: {
  device: DeviceDetail;
  tenant: string;
  canDownload: boolean;
}) {
  const { t } = useTranslation();
  const [download, setDownload] = useState<DeviceConfigDownload | null>(null);
  const fetchConfig = useDownloadDeviceConfig(tenant, device.id, { onSuccess: setDownload });
  const hasTunnel = device.state === 'active' && device.wireguard !== null;
  if (!hasTunnel) return null;
  const isOutdated = device.configOutdated === true && download === null;
  const downloadedAt = download?.downloadedAt ?? device.configDownloadedAt;

  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Text size="sm" fw={500}>
          {t('devices.config.title', 'Configuration')}
        </Text>
        <TunnelModeBadge fullTunnel={device.fullTunnel} />
        {isOutdated ? <ConfigOutdatedBadge /> : null}
      </Group>
      {isOutdated ? (
        <Alert
          color="yellow"
          title={t('devices.config.outdatedTitle', 'Configuration outdated — download again')}
        >
          {t(
            'devices.config.outdatedText',
            'Routes, gateways or the tunnel mode changed since its configuration was handed out. Download it again and import it into the WireGuard app; a device with the Palisade agent updates itself.',
          )}
        </Alert>
      ) : null}
      <Text size="sm" c="dimmed">
        {downloadedAt ? (
          <>
            {t('devices.config.lastDownloaded', 'Last downloaded:')} <RelativeTime value={downloadedAt} />
          </>
        ) : (
          t('devices.config.neverDownloaded', 'No configuration was downloaded for it on this console yet.')
        )}
      </Text>
      {canDownload && download === null ? (
        <Group>
          <Button
            variant={isOutdated ? 'filled' : 'default'}
            loading={fetchConfig.isPending}
            onClick={() => fetchConfig.mutate()}
          >
            {t('devices.config.downloadAgain', 'Download the configuration again')}
          </Button>
        </Group>
      ) : null}
      {download ? <DownloadedConfig device={device} download={download} /> : null}
    </Stack>
  );
}
