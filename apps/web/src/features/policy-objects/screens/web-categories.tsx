import { Button, Group, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import type { CategoryAction, CategoryInput, WebCategory } from '@palisade/contracts';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { formatNumber } from '../../../lib/i18n';
import { showMutationError } from '../../../lib/mutation-toast';
import { catalogDescription, catalogName } from '../../../lib/policy-names';
import { useCategories, useDeleteCategories, useSaveCategory, useSetCategoryAction } from '../api/categories';
import { CategoryFormModal } from '../components/category-form';
import { CollapsibleList } from '../components/collapsible-list';
import { DomainLookup } from '../components/domain-lookup';
import { useObjectEditor, useSafeDelete } from '../components/object-crud';
import { ObjectsPageHeader } from '../components/objects-page-header';
import { PolicyTestFailuresAlert, useTestFailures } from '../components/policy-test-failures-alert';
import { RowActions } from '../components/row-actions';
import { UsedByButton } from '../components/where-used-dialog';

type CategoryClass = WebCategory['class'];

const CLASSES: readonly CategoryClass[] = ['security', 'content', 'custom'];

/**
 * `/policy/web-categories`: the shipped security and content categories and the tenant's custom ones. Each
 * can be allowed or blocked for the whole tenant, or left to the policies; a domain look-up says which
 * categories a domain is in.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('policies:create');
  const canUpdate = useCan('policies:update');
  const canDelete = useCan('policies:delete');
  const categoriesQuery = useCategories(tenant);

  const actionFailures = useTestFailures();

  const actionMutation = useSetCategoryAction(tenant, {
    onSuccess: () => actionFailures.clear(),
    onError: (error, { id }) => {
      if (!actionFailures.capture(error, id)) showMutationError(t, error);
    },
  });
  const editor = useObjectEditor({
    useSave: useSaveCategory,
    toVars: (category: WebCategory | undefined, body: CategoryInput) => ({ id: category?.id, body }),
    nameOfInput: (input) => input.name,
    createdMessage: (name) => t('policyObjects.categories.created', 'Category {{name}} added.', { name }),
  });
  const deletion = useSafeDelete({
    kind: 'category',
    idOf: (category: WebCategory) => category.id,
    nameOf: (category) => category.name,
    useDelete: useDeleteCategories,
    deletedMessage: (name) => t('policyObjects.categories.deleted', 'Category {{name}} deleted.', { name }),
  });

  const classTitles: Record<CategoryClass, string> = {
    security: t('policyObjects.categories.security', 'Security'),
    content: t('policyObjects.categories.content', 'Content'),
    custom: t('policyObjects.categories.customTitle', 'Custom'),
  };
  const classHints: Record<CategoryClass, string> = {
    security: t(
      'policyObjects.categories.securityHint',
      'Threats such as malware and phishing. Blocks here are evaluated before your own DNS rules.',
    ),
    content: t(
      'policyObjects.categories.contentHint',
      'What sites are about. Allow and block here are evaluated after your own DNS rules.',
    ),
    custom: t('policyObjects.categories.customHint', 'Your own categories, built from domains.'),
  };
  const actionOptions = [
    { value: 'none', label: t('policyObjects.categories.action.none', 'Policies decide') },
    { value: 'allow', label: t('policyObjects.categories.action.allow', 'Allow') },
    { value: 'block', label: t('policyObjects.categories.action.block', 'Block') },
  ];

  const addButton = canCreate ? (
    <Button onClick={() => editor.open()}>{t('policyObjects.categories.add', 'Add custom category')}</Button>
  ) : null;

  const renderRow = (category: WebCategory) => {
    const isSaving = actionMutation.isPending && actionMutation.variables?.id === category.id;
    const isCustom = category.class === 'custom';
    const name = catalogName(t, 'category', category.id, category.name);
    const description = catalogDescription(t, category.id, category.description);
    return (
      <Fragment key={category.id}>
        <Table.Tr>
          <Table.Th scope="row" fw={400}>
            <Text size="sm" fw={500}>
              {name}
            </Text>
            {description ? (
              <Text size="xs" c="dimmed" lineClamp={2}>
                {description}
              </Text>
            ) : null}
          </Table.Th>
          <Table.Td>
            <Text size="sm" mb={4}>
              {t('policyObjects.categories.domainCount', {
                count: category.domainCount,
                formatted: formatNumber(category.domainCount),
                defaultValue_one: '{{formatted}} domain',
                defaultValue_other: '{{formatted}} domains',
              })}
            </Text>
            {category.domains.length > 0 ? (
              <CollapsibleList
                items={category.domains}
                label={t('policyObjects.categories.examplesOf', 'example domains of {{name}}', {
                  name,
                })}
              />
            ) : null}
          </Table.Td>
          <Table.Td>
            <SegmentedControl
              size="xs"
              aria-label={t('policyObjects.categories.actionOf', 'Action for {{name}}', {
                name,
              })}
              data={actionOptions}
              value={category.action}
              readOnly={!canUpdate}
              disabled={isSaving}
              color={category.action === 'block' ? 'red' : category.action === 'allow' ? 'green' : undefined}
              onChange={(value) => {
                actionFailures.clear();
                actionMutation.mutate({ id: category.id, action: value as CategoryAction });
              }}
            />
          </Table.Td>
          <Table.Td>
            <UsedByButton kind="category" id={category.id} name={name} count={category.usedBy} />
          </Table.Td>
          {isCustom ? (
            <Table.Td>
              <RowActions
                name={name}
                onEdit={canUpdate ? () => editor.open(category) : undefined}
                onDelete={canDelete ? () => deletion.ask(category) : undefined}
              />
            </Table.Td>
          ) : null}
        </Table.Tr>
        {actionFailures.subject === category.id && actionFailures.failures ? (
          <Table.Tr>
            <Table.Td colSpan={isCustom ? 5 : 4}>
              <PolicyTestFailuresAlert failures={actionFailures.failures} onClose={actionFailures.clear} />
            </Table.Td>
          </Table.Tr>
        ) : null}
      </Fragment>
    );
  };

  const renderBody = () => {
    if (categoriesQuery.isPending)
      return <LoadingState label={t('policyObjects.categories.loading', 'Loading categories…')} />;
    if (categoriesQuery.isError)
      return <ErrorState error={categoriesQuery.error} onRetry={() => void categoriesQuery.refetch()} />;
    const categories = categoriesQuery.data;
    return CLASSES.map((categoryClass) => {
      const rows = categories.filter((category) => category.class === categoryClass);
      const headingId = `categories-${categoryClass}`;
      return (
        <Stack key={categoryClass} gap="xs" component="section" aria-labelledby={headingId}>
          <Group justify="space-between" align="flex-end">
            <div>
              <Title order={2} size="h4" id={headingId}>
                {classTitles[categoryClass]}
              </Title>
              <Text size="sm" c="dimmed">
                {classHints[categoryClass]}
              </Text>
            </div>
            {categoryClass === 'custom' && rows.length > 0 ? addButton : null}
          </Group>
          {rows.length === 0 ? (
            <EmptyState
              message={
                categoryClass === 'custom'
                  ? t(
                      'policyObjects.categories.customEmpty',
                      'No custom categories yet. Build one from a list of domains.',
                    )
                  : t('policyObjects.categories.none', 'No categories.')
              }
              action={categoryClass === 'custom' ? addButton : null}
            />
          ) : (
            <Table.ScrollContainer minWidth={820}>
              <Table withTableBorder verticalSpacing="sm" aria-labelledby={headingId}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col" w="26%">
                      {t('policyObjects.columns.name', 'Name')}
                    </Table.Th>
                    <Table.Th scope="col">{t('policyObjects.categories.domains', 'Domains')}</Table.Th>
                    <Table.Th scope="col" w={250}>
                      {t('policyObjects.categories.actionColumn', 'Tenant-wide action')}
                    </Table.Th>
                    <Table.Th scope="col" w="13%">
                      {t('policyObjects.columns.usedBy', 'Used by')}
                    </Table.Th>
                    {categoryClass === 'custom' ? (
                      <Table.Th scope="col" w="12%" ta="right">
                        {t('policyObjects.columns.actions', 'Actions')}
                      </Table.Th>
                    ) : null}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>{rows.map(renderRow)}</Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      );
    });
  };

  return (
    <>
      <ObjectsPageHeader
        title={t('policyObjects.categories.title', 'Web categories')}
        description={t(
          'policyObjects.categories.description',
          'Allow or block whole categories of sites for everyone, or leave them to the policies; rules can also match categories.',
        )}
      />
      <Stack gap="xl">
        <DomainLookup />
        {renderBody()}
      </Stack>
      {editor.state.isOpen ? (
        <CategoryFormModal
          key={editor.state.key}
          opened
          category={editor.state.object}
          onSubmit={editor.onSubmit}
          onCancel={editor.close}
        />
      ) : null}
      {deletion.dialog}
    </>
  );
}
