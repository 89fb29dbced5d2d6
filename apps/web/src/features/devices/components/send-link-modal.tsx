import { Alert, Button, Checkbox, Group, Image, Modal, Radio, Stack, Text } from '@mantine/core';
import { type CreatedLink, LINK_TTL_HOURS, type UserDevices } from '@palisade/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/format-time';
import { showMutationError } from '../../../lib/mutation-toast';
import { useCreateUserLink } from '../api/create-user-link';
import { qrCodeOf } from '../utils/wireguard-config';
import { CopyField } from './copy-field';

/** Validity of a new link, in hours (1, 3, 7 or 30 days). */
type TtlHours = (typeof LINK_TTL_HOURS)[number];

/** Props of {@link SendLinkModal}. */
export interface SendLinkModalProps {
  /** The user to send a link to; the dialog is open while one is given. */
  user: UserDevices | null;
  /** A client enrolment link, or an agentless (browser) access link. */
  kind: 'link' | 'agentless';
  tenant: string;
  onClose: () => void;
}

/** The new link and token, shown once, with copy buttons and a plain warning. */
function CreatedStep({
  link,
  user,
  isEmailed,
  onDone,
}: {
  link: CreatedLink;
  user: UserDevices;
  isEmailed: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const expires = useFormatters().dateTime(link.expiresAt);
  // The link as a QR code, for opening it on the phone to enrol.
  const [qrCode, setQrCode] = useState<string | null>(null);
  useEffect(() => {
    let isCurrent = true;
    qrCodeOf(link.url).then(
      (url) => isCurrent && setQrCode(url),
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [link.url]);
  return (
    <Stack gap="md">
      <Alert color="orange" title={t('devices.link.onceTitle', 'Copy the link now')}>
        {t(
          'devices.link.onceWarning',
          'This is the only time the link and its token are shown. If they are lost, send a new link.',
        )}
      </Alert>
      {isEmailed ? (
        <Text size="sm">
          {t('devices.link.emailed', 'The link was also e-mailed to {{username}}.', {
            username: user.username,
          })}
        </Text>
      ) : null}
      <CopyField
        label={t('devices.link.url', 'Enrolment link')}
        value={link.url}
        copyLabel={t('devices.link.copyUrl', 'Copy link')}
      />
      {qrCode ? (
        <Image
          src={qrCode}
          alt={t('devices.link.qrAlt', 'QR code of the enrolment link: scan it with the phone to enrol')}
          w={200}
          h={200}
          mx="auto"
        />
      ) : null}
      <CopyField
        label={t('devices.link.token', 'Token (to paste into the client)')}
        value={link.token}
        copyLabel={t('devices.link.copyToken', 'Copy token')}
      />
      <Text size="sm" c="dimmed">
        {t('devices.link.expires', 'Valid until {{date}}, for one device.', { date: expires })}
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone}>{t('devices.link.done', 'Done')}</Button>
      </Group>
    </Stack>
  );
}

/**
 * Creates a one-off enrolment link for a user (replacing a pending one): validity and whether to e-mail it,
 * then the link and token once. Closing forgets them.
 */
export function SendLinkModal({ user, kind, tenant, onClose }: SendLinkModalProps) {
  const { t } = useTranslation();
  const [ttlHours, setTtlHours] = useState<TtlHours>(168);
  const [sendEmail, setSendEmail] = useState(false);
  const [created, setCreated] = useState<CreatedLink | null>(null);
  const create = useCreateUserLink(tenant, {
    onSuccess: (link) => setCreated(link),
    onError: (error) => showMutationError(t, error),
  });

  const handleClose = () => {
    if (create.isPending) return;
    setCreated(null);
    setTtlHours(168);
    setSendEmail(false);
    create.reset();
    onClose();
  };

  const ttlLabels: Record<TtlHours, string> = {
    24: t('devices.link.ttl1', '1 day'),
    72: t('devices.link.ttl3', '3 days'),
    168: t('devices.link.ttl7', '7 days'),
    720: t('devices.link.ttl30', '30 days'),
  };
  const title = created
    ? t('devices.link.createdTitle', 'Link created')
    : kind === 'agentless'
      ? t('devices.link.agentlessTitle', 'Send agentless access link')
      : t('devices.link.title', 'Send enrolment link');

  return (
    <Modal opened={user !== null} onClose={handleClose} title={title} size="lg" centered>
      {user && created ? (
        <CreatedStep link={created} user={user} isEmailed={sendEmail} onDone={handleClose} />
      ) : user ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate({ userId: user.id, body: { kind, ttlHours, sendEmail } });
          }}
        >
          <Stack gap="md">
            <Text size="sm">
              {kind === 'agentless'
                ? t(
                    'devices.link.agentlessIntro',
                    '{{name}} opens the link in a browser and registers it for access without the client.',
                    { name: user.fullname || user.username },
                  )
                : t(
                    'devices.link.intro',
                    '{{name}} opens the link on the device, installs the client and enrols it. A pending link of this user is replaced.',
                    { name: user.fullname || user.username },
                  )}
            </Text>
            <Radio.Group
              label={t('devices.link.validity', 'Valid for')}
              value={String(ttlHours)}
              onChange={(value) => setTtlHours(Number(value) as TtlHours)}
            >
              <Group gap="lg" mt={6}>
                {LINK_TTL_HOURS.map((hours) => (
                  <Radio key={hours} value={String(hours)} label={ttlLabels[hours]} />
                ))}
              </Group>
            </Radio.Group>
            <Checkbox
              label={t('devices.link.sendEmail', 'Also e-mail the link to {{username}}', {
                username: user.username,
              })}
              checked={sendEmail}
              onChange={(event) => setSendEmail(event.currentTarget.checked)}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={handleClose} disabled={create.isPending}>
                {t('devices.link.cancel', 'Cancel')}
              </Button>
              <Button type="submit" loading={create.isPending} data-autofocus>
                {t('devices.link.submit', 'Create link')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}
