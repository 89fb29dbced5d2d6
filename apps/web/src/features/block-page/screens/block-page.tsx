import { Alert, Button, Group, Image, Paper, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import type { BlockPageInfo } from '@palisade/contracts';
import { type FormEvent, type ReactNode, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format-time';
import { catalogName } from '../../../lib/policy-names';
import type { BlockPageAddress } from '../api/block-page-keys';
import { useBlockPage } from '../api/get-block-page';
import { useRequestAccess } from '../api/request-access';

const REASON_MAX = 500;

/** The address the gateway redirected to, as the API takes it: only the parameters it knows. */
function useAddress(): BlockPageAddress | null {
  const { type, id } = useParams();
  const [search] = useSearchParams();
  const tenant = search.get('tenant') ?? undefined;
  const host = search.get('host') ?? undefined;
  const url = search.get('url') ?? undefined;
  const client = search.get('client') ?? undefined;
  return useMemo(
    () =>
      type
        ? {
            type,
            id: id ?? null,
            query: {
              ...(tenant ? { tenant } : {}),
              ...(host ? { host } : {}),
              ...(url ? { url } : {}),
              ...(client ? { client } : {}),
            },
          }
        : null,
    [type, id, tenant, host, url, client],
  );
}

/** What a failed request for access means for the reader. */
export function requestFailure(error: unknown): 'pending' | 'limited' | 'gone' | 'failed' {
  if (error instanceof ApiError) {
    if (error.code === 'access_request_pending') return 'pending';
    if (error.status === 429) return 'limited';
    if (error.status === 404) return 'gone';
  }
  return 'failed';
}

function RequestAccessForm({ info, address }: { info: BlockPageInfo; address: BlockPageAddress }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useRequestAccess();
  const titleId = useId();

  if (send.data) {
    return (
      <Alert color="green" title={t('blockPage.request.sentTitle', 'Request sent')} role="status">
        {t(
          'blockPage.request.sent',
          'Your administrators were asked. If they approve, the site opens for you for the time they choose; you will get a mail either way. Reference: {{reference}}',
          { reference: send.data.reference },
        )}
      </Alert>
    );
  }

  const failure = send.error ? requestFailure(send.error) : null;
  const retryMinutes =
    send.error instanceof ApiError && send.error.retryAfterSeconds
      ? Math.max(1, Math.ceil(send.error.retryAfterSeconds / 60))
      : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = reason.trim();
    if (!text) {
      setError(t('blockPage.request.reasonRequired', 'Say why you need access.'));
      return;
    }
    setError(null);
    send.mutate({
      type: address.type,
      id: info.ruleId ?? address.id ?? '',
      body: {
        tenant: address.query.tenant ?? '',
        host: info.host ?? '',
        ...(info.url ? { url: info.url } : {}),
        ...(address.query.client ? { client: address.query.client } : {}),
        reference: info.reference,
        reason: text,
      },
    });
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h4" id={titleId}>
        {t('blockPage.request.title', 'Request access')}
      </Title>
      {failure === 'pending' ? (
        <Alert color="yellow" title={t('blockPage.request.pendingTitle', 'You already asked')}>
          {t(
            'blockPage.request.pending',
            'Your request for this site waits for a decision. You will get a mail when it is decided.',
          )}
        </Alert>
      ) : failure === 'limited' ? (
        <Alert color="yellow" title={t('blockPage.request.limitedTitle', 'Too many requests')}>
          {retryMinutes
            ? t('blockPage.request.limitedIn', 'Please try again in {{count, number}} minutes.', {
                count: retryMinutes,
              })
            : t('blockPage.request.limited', 'Please try again later.')}
        </Alert>
      ) : failure === 'gone' ? (
        <Alert color="yellow" title={t('blockPage.request.goneTitle', 'This block cannot be asked about')}>
          {t(
            'blockPage.request.gone',
            'The rule that blocked the site changed meanwhile. Reload the site to see.',
          )}
        </Alert>
      ) : failure === 'failed' ? (
        <Alert color="red" title={t('blockPage.request.failedTitle', 'The request was not sent')}>
          {t('error.genericFetchErrorText', 'We could not load the data. Please try again.')}
        </Alert>
      ) : null}
      {failure === 'pending' || failure === 'limited' ? null : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Textarea
              label={t('blockPage.request.reason', 'Why do you need access?')}
              description={t(
                'blockPage.request.reasonHint',
                'Your administrators see this, the site and your device.',
              )}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              maxLength={REASON_MAX}
              autosize
              minRows={3}
              required
              error={error}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={send.isPending}>
                {t('blockPage.request.submit', 'Send request')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

function Details({ info }: { info: BlockPageInfo }) {
  const { t } = useTranslation();
  const rows: [string, string][] = [];
  if (info.host) rows.push([t('blockPage.details.site', 'Site'), info.host]);
  if (info.url) rows.push([t('blockPage.details.url', 'Address'), info.url]);
  if (info.ruleKind) {
    rows.push([
      t('blockPage.details.kind', 'Blocked by'),
      t(`blockPage.kinds.${info.ruleKind}`, { defaultValue: t('blockPage.kinds.other', 'A policy rule') }),
    ]);
  }
  if (info.category) {
    rows.push([
      t('blockPage.details.category', 'Category'),
      info.category.name === null
        ? t('blockPage.details.customCategory', 'A category of your organisation')
        : catalogName(t, 'category', info.category.id, info.category.name),
    ]);
  }
  rows.push([t('blockPage.details.time', 'Time'), formatDateTime(info.at)]);
  rows.push([t('blockPage.details.reference', 'Reference'), info.reference]);
  return (
    <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '4px 16px' }}>
      {rows.map(([label, value]) => (
        <div key={label} style={{ display: 'contents' }}>
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ wordBreak: 'break-all' }}>
            {value}
          </Text>
        </div>
      ))}
    </dl>
  );
}

function PageBody({ info, address }: { info: BlockPageInfo; address: BlockPageAddress }) {
  const { t } = useTranslation();
  const branding = info.branding;
  return (
    <Stack gap="lg">
      {branding ? (
        <Group
          gap="sm"
          style={{ borderBottom: `3px solid ${branding.primaryColor ?? 'var(--mantine-color-blue-6)'}` }}
          pb="sm"
        >
          {branding.logo ? <Image src={branding.logo} alt="" h={32} w="auto" fit="contain" /> : null}
          <Text fw={600}>{branding.displayName}</Text>
        </Group>
      ) : null}
      <Stack gap={4}>
        <Title order={1} size="h3">
          {info.generic
            ? t('blockPage.genericTitle', 'This page is blocked')
            : t(`blockPage.titles.${info.type ?? 'site'}`, {
                defaultValue: t('blockPage.titles.site', 'This site is blocked'),
              })}
        </Title>
        <Text size="sm" c="dimmed">
          {info.generic
            ? t(
                'blockPage.genericText',
                'Your organisation’s policy does not allow this. If you think it should, contact your administrator and quote the reference below.',
              )
            : t(
                'blockPage.text',
                '{{tenant}}’s policy does not allow this site. If you need it for your work, ask for access below.',
                { tenant: branding?.displayName ?? '' },
              )}
        </Text>
      </Stack>
      <Details info={info} />
      {info.canRequest ? <RequestAccessForm info={info} address={address} /> : null}
    </Stack>
  );
}

/**
 * `/blockaccess`, `/blockaccess/:type`, `/blockaccess/:type/:id`: where a gateway sends a blocked request
 * (public, no session): in the tenant's branding and the reader's language, what was blocked and why (the kind of
 * rule, never its text), with "Request access". An unknown type, tenant or rule shows the generic page.
 */
export function Component() {
  const { t } = useTranslation();
  const address = useAddress();
  const page = useBlockPage(address ?? { type: 'site', id: null, query: {} });
  const frame = (children: ReactNode) => (
    <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={560}>
      {children}
    </Paper>
  );
  if (!address) {
    return frame(
      <Stack gap={4}>
        <Title order={1} size="h3">
          {t('blockPage.genericTitle', 'This page is blocked')}
        </Title>
        <Text size="sm" c="dimmed">
          {t(
            'blockPage.genericText',
            'Your organisation’s policy does not allow this. If you think it should, contact your administrator and quote the reference below.',
          )}
        </Text>
      </Stack>,
    );
  }
  if (page.isPending) {
    return frame(
      <Stack gap="sm" aria-busy="true" aria-label={t('blockPage.loading', 'Loading…')}>
        <Skeleton h={28} w="60%" />
        <Skeleton h={16} />
        <Skeleton h={16} w="80%" />
      </Stack>,
    );
  }
  if (page.isError) {
    return frame(
      <Alert color="red" title={t('blockPage.loadFailedTitle', 'This site is blocked')}>
        {t('error.genericFetchErrorText', 'We could not load the data. Please try again.')}
      </Alert>,
    );
  }
  return frame(<PageBody info={page.data} address={address} />);
}
