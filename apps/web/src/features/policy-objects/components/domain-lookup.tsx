import { Box, Button, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { isValidDomainOrUrl, normaliseDomain } from '@palisade/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ui/query-state';
import { useWorkingTenant } from '../../../lib/auth';
import { translateKey } from '../../../lib/form-errors';
import { catalogName } from '../../../lib/policy-names';
import { useCategoryLookup } from '../api/categories';

/** "Which category is example.com?": the categories (and apps) a domain belongs to, from the server. */
export function DomainLookup() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const headingId = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [domain, setDomain] = useState('');
  const lookup = useCategoryLookup(tenant, domain);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!isValidDomainOrUrl(value)) {
      setError(translateKey(t, value ? 'validation.domain' : 'validation.required'));
      return;
    }
    setError(null);
    setDomain(normaliseDomain(value));
  };

  const renderResult = () => {
    if (!domain) return null;
    if (lookup.isPending)
      return (
        <Text size="sm" c="dimmed">
          {t('policyObjects.lookup.looking', 'Looking up…')}
        </Text>
      );
    if (lookup.isError) return <ErrorState error={lookup.error} onRetry={() => void lookup.refetch()} />;
    const { categories, apps } = lookup.data;
    return (
      <Stack gap={4}>
        {categories.length === 0 ? (
          <Text size="sm">
            {t('policyObjects.lookup.noCategory', '{{domain}} is in no category.', {
              domain: lookup.data.domain,
            })}
          </Text>
        ) : (
          <>
            <Text size="sm">
              {t('policyObjects.lookup.inCategories', {
                count: categories.length,
                domain: lookup.data.domain,
                defaultValue_one: '{{domain}} is in this category:',
                defaultValue_other: '{{domain}} is in these categories:',
              })}
            </Text>
            <List size="sm" spacing={2}>
              {categories.map((category) => (
                <List.Item key={category.id}>
                  {category.matched && category.matched !== lookup.data.domain
                    ? t('policyObjects.lookup.matchedVia', '{{name}} (through {{matched}})', {
                        name: catalogName(t, 'category', category.id, category.name),
                        matched: category.matched,
                      })
                    : catalogName(t, 'category', category.id, category.name)}
                </List.Item>
              ))}
            </List>
          </>
        )}
        {apps.length > 0 ? (
          <Text size="sm">
            {t('policyObjects.lookup.apps', 'Apps using it: {{names}}', {
              names: apps.map((app) => app.appname).join(', '),
            })}
          </Text>
        ) : null}
      </Stack>
    );
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h5" id={headingId} mb="xs">
        {t('policyObjects.lookup.title', 'Look up a domain')}
      </Title>
      <form onSubmit={handleSubmit} noValidate>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t('policyObjects.lookup.label', 'Which category is this domain in?')}
            placeholder="example.com"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            error={error}
            autoComplete="off"
            w={{ base: '100%', sm: 380 }}
          />
          <Button type="submit" mt={{ base: 0, sm: 25 }} loading={domain !== '' && lookup.isFetching}>
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
