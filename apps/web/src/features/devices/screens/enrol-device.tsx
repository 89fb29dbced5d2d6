import { Alert, Box, Button, Divider, List, Stack, Text, Title } from '@mantine/core';
import type { DeviceOs, EnrolmentInfo } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { z } from 'zod';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { ApiError, errorMessageKey } from '../../../lib/api-client';
import { useFormatters } from '../../../lib/format-time';
import { useEnrol, useEnrolmentInfo } from '../api/enrolment';
import { CopyField } from '../components/copy-field';
import { EnrolCard } from '../components/enrol-card';
import { OsLabel } from '../components/os-label';
import { type WireguardDevice, WireguardEnrol, WireguardReady } from '../components/wireguard-enrol';
import { browserPlatform } from '../utils/device-name';

type Info = z.infer<typeof EnrolmentInfo>;

/** The clients offered for download (spec §9: Windows, Mac, Android, iOS, Linux; the links are not shown). */
const CLIENTS: readonly DeviceOs[] = ['windows', 'mac', 'android', 'ios', 'linux'];

/** Whether a failure means the token itself is no good: unknown, used, revoked, expired or malformed. */
function isInvalidToken(error: unknown): boolean {
  return error instanceof ApiError && [400, 404, 410].includes(error.status);
}

/** A name for this browser as a device, e.g. "Chrome on Linux", from its user agent. */
function useBrowserDeviceName(): string {
  const { t } = useTranslation();
  const { browser, os } = browserPlatform(typeof navigator === 'undefined' ? '' : navigator.userAgent);
  if (browser && os) return t('devices.enrol.browserOn', '{{browser}} on {{os}}', { browser, os });
  if (browser) return browser;
  if (os) return t('devices.enrol.browserOnOs', 'Web browser on {{os}}', { os });
  return t('devices.enrol.webBrowser', 'Web browser');
}

function InvalidLink() {
  const { t } = useTranslation();
  return (
    <EnrolCard
      title={t('devices.enrol.invalidTitle', 'This enrolment link is not valid')}
      description={t(
        'devices.enrol.invalid',
        'It has expired, was already used or was revoked, or it was not copied completely. Ask your administrator for a new link.',
      )}
    />
  );
}

/** Who and what the token is for: the organisation, the user and until when it works. */
function LinkFacts({ info }: { info: Info }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const expires = info.expiresAt;
  const facts: [string, string][] = [
    [t('devices.enrol.organisation', 'Organisation'), info.tenantDisplayName],
    [
      t('devices.enrol.for', 'For'),
      info.username ?? t('devices.enrol.anyUser', 'Any user of the organisation'),
    ],
    [
      t('devices.enrol.validUntil', 'Valid until'),
      expires === null
        ? t('devices.enrol.noExpiry', 'No expiry date')
        : `${format.dateTime(expires)} (${format.relative(expires)})`,
    ],
  ];
  return (
    <Box component="dl" m={0} style={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '6px 16px' }}>
      {facts.map(([term, value]) => (
        <Box key={term} style={{ display: 'contents' }}>
          <Text component="dt" size="sm" c="dimmed">
            {term}
          </Text>
          <Text component="dd" size="sm" fw={500} m={0} style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </Box>
      ))}
    </Box>
  );
}

/** Registers this browser as an agentless (os `chrome`) device of the link's user. */
function RegisterBrowser({
  token,
  isSecondary = false,
  onRegistered,
  onInvalid,
}: {
  token: string;
  /** Shown after the client steps, as the other way: a lighter button. */
  isSecondary?: boolean;
  onRegistered: (name: string) => void;
  onInvalid: () => void;
}) {
  const { t } = useTranslation();
  const name = useBrowserDeviceName();
  const enrol = useEnrol();
  return (
    <Stack gap="sm">
      <Text size="sm">
        {t('devices.enrol.browserAs', 'This browser will be registered as “{{name}}”.', { name })}
      </Text>
      {enrol.isError && !isInvalidToken(enrol.error) ? (
        <Alert color="red" role="alert">
          {t(errorMessageKey(enrol.error), {
            defaultValue: t('devices.enrol.failed', 'The browser could not be registered. Try again.'),
          })}
        </Alert>
      ) : null}
      <Button
        fullWidth
        variant={isSecondary ? 'light' : 'filled'}
        loading={enrol.isPending}
        onClick={() =>
          enrol.mutate(
            { token, device: { name, os: 'chrome' } },
            {
              onSuccess: () => onRegistered(name),
              onError: (error) => {
                if (isInvalidToken(error)) onInvalid();
              },
            },
          )
        }
      >
        {t('devices.enrol.register', 'Register this browser')}
      </Button>
    </Stack>
  );
}

/** The clients to install, then the token to paste into the client. */
function ClientSteps({ token }: { token: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Stack gap="xs" component="section" aria-labelledby="enrol-install">
        <Title order={2} size="h5" id="enrol-install">
          {t('devices.enrol.installTitle', '1. Install the Palisade client')}
        </Title>
        <Text size="sm" c="dimmed">
          {t(
            'devices.enrol.installHint',
            'Clients are available for these systems; your administrator tells you where to get them.',
          )}
        </Text>
        <List listStyleType="none" spacing={4} p={0}>
          {CLIENTS.map((os) => (
            <List.Item key={os}>
              <OsLabel os={os} />
            </List.Item>
          ))}
        </List>
      </Stack>
      <Stack gap="xs" component="section" aria-labelledby="enrol-token">
        <Title order={2} size="h5" id="enrol-token">
          {t('devices.enrol.tokenTitle', '2. Paste this token into the client')}
        </Title>
        <CopyField
          label={t('devices.enrol.token', 'Enrolment token')}
          value={token}
          copyLabel={t('devices.enrol.copyToken', 'Copy token')}
        />
      </Stack>
    </Stack>
  );
}

/** A valid token: what it is for, and the ways to enrol with it. */
function EnrolWithToken({ token, info }: { token: string; info: Info }) {
  const { t } = useTranslation();
  const [registered, setRegistered] = useState<string | null>(null);
  const [isInvalid, setIsInvalid] = useState(false);
  const [wireguard, setWireguard] = useState<WireguardDevice | null>(null);

  if (isInvalid) return <InvalidLink />;
  if (wireguard) return <WireguardReady device={wireguard} tenant={info.tenantDisplayName} />;
  if (registered) {
    return (
      <EnrolCard
        title={t('devices.enrol.doneTitle', 'This browser is registered')}
        description={t(
          'devices.enrol.done',
          'It is registered as “{{name}}” for {{tenant}}. You can close this page.',
          { name: registered, tenant: info.tenantDisplayName },
        )}
      />
    );
  }

  const register = (
    <RegisterBrowser
      token={token}
      isSecondary={info.kind !== 'agentless'}
      onRegistered={setRegistered}
      onInvalid={() => setIsInvalid(true)}
    />
  );
  if (info.kind === 'agentless') {
    return (
      <EnrolCard
        title={t('devices.enrol.agentlessTitle', 'Register this browser')}
        description={t(
          'devices.enrol.agentlessIntro',
          'Register the browser you are using now to reach {{tenant}}’s apps without installing anything.',
          { tenant: info.tenantDisplayName },
        )}
      >
        <LinkFacts info={info} />
        {register}
      </EnrolCard>
    );
  }
  return (
    <EnrolCard
      title={t('devices.enrol.title', 'Enrol your device')}
      description={t(
        'devices.enrol.intro',
        'Connect this device to {{tenant}}: install the client, then enrol it with the token below.',
        { tenant: info.tenantDisplayName },
      )}
    >
      <LinkFacts info={info} />
      <ClientSteps token={token} />
      {info.kind === 'link' ? (
        <>
          <Divider label={t('devices.enrol.or', 'or, without the client')} labelPosition="center" />
          {register}
          <Divider
            label={t('devices.enrol.wireguard.or', 'or, with the WireGuard app')}
            labelPosition="center"
          />
          <WireguardEnrol token={token} onEnrolled={setWireguard} onInvalid={() => setIsInvalid(true)} />
        </>
      ) : null}
    </EnrolCard>
  );
}

/** `/verify/wg/:id` (public): the page an enrolment link opens; `:id` is the token. */
export function Component() {
  const { t } = useTranslation();
  const { id: token = '' } = useParams();
  const info = useEnrolmentInfo(token);

  if (info.isPending) {
    return (
      <EnrolCard title={t('devices.enrol.checkingTitle', 'Checking your enrolment link')}>
        <LoadingState label={t('devices.enrol.checking', 'Checking…')} />
      </EnrolCard>
    );
  }
  if (info.isError) {
    if (isInvalidToken(info.error)) return <InvalidLink />;
    return (
      <EnrolCard title={t('devices.enrol.failedTitle', 'The link could not be checked')}>
        <ErrorState error={info.error} onRetry={() => void info.refetch()} />
      </EnrolCard>
    );
  }
  return <EnrolWithToken token={token} info={info.data} />;
}
