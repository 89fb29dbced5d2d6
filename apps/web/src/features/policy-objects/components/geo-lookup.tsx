import { Badge, Box, Button, Group, Paper, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { useWorkingTenant } from '../../../lib/auth';
import { serverFieldErrors, translateKey } from '../../../lib/form-errors';
import { useGeoLookup } from '../api/geo';

/** Props of {@link GeoLookup}. */
export interface GeoLookupProps {
  /** Names a country code in the user's language. */
  countryName: (code: string) => string;
  /** The countries blocked now (saved), to say whether the address is blocked. */
  blocked: readonly string[];
}

/** "IP look-up": the country of an address in the shipped GeoIP database, and whether it is blocked. */
export function GeoLookup({ countryName, blocked }: GeoLookupProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const headingId = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [ip, setIp] = useState('');
  const lookup = useGeoLookup(tenant, ip);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) {
      setError(translateKey(t, 'validation.required'));
      return;
    }
    setError(null);
    setIp(value);
  };

  const lookupError =
    lookup.error instanceof ApiError && lookup.error.status === 400
      ? (Object.values(serverFieldErrors(lookup.error, t))[0] ?? translateKey(t, 'validation.invalid'))
      : null;

  const renderResult = () => {
    if (!ip || lookupError) return null;
    if (lookup.isPending) return <Text size="sm">{t('policyObjects.lookup.looking', 'Looking up…')}</Text>;
    if (lookup.isError)
      return (
        <Text size="sm" c="red">
          {t('error.genericFetchErrorText', 'We could not load the data. Please try again.')}
        </Text>
      );
    const { country } = lookup.data;
    if (!country)
      return (
        <Text size="sm">
          {t('policyObjects.geo.lookupUnknown', 'No country is known for {{ip}}.', { ip: lookup.data.ip })}
        </Text>
      );
    const isBlocked = blocked.includes(country);
    return (
      <Group gap="xs">
        <Text size="sm">
          {t('policyObjects.geo.lookupResult', '{{ip}} is in {{country}} ({{code}}).', {
            ip: lookup.data.ip,
            country: countryName(country),
            code: country,
          })}
        </Text>
        {isBlocked ? (
          <Badge color="red" variant="light">
            {t('policyObjects.geo.blockedBadge', 'Blocked')}
          </Badge>
        ) : null}
      </Group>
    );
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h5" id={headingId} mb="xs">
        {t('policyObjects.geo.lookupTitle', 'IP look-up')}
      </Title>
      <form onSubmit={handleSubmit} noValidate>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t('policyObjects.geo.lookupLabel', 'Which country is this IP address in?')}
            placeholder="203.0.113.10"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            error={error ?? lookupError}
            autoComplete="off"
            w={{ base: '100%', sm: 380 }}
          />
          <Button type="submit" mt={{ base: 0, sm: 25 }} loading={ip !== '' && lookup.isFetching}>
            {t('policyObjects.lookup.submit', 'Look up')}
          </Button>
        </Group>
      </form>
      <Box aria-live="polite" mt="xs">
        {renderResult()}
      </Box>
    </Paper>
  );
}
