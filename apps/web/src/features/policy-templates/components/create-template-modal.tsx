import { Button, Group, Modal, MultiSelect, Select, Stack, Textarea, TextInput } from '@mantine/core';
import type { PolicyTemplate } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useSourcePolicies, useTemplateSources } from '../api/get-template-sources';
import { useCreatePolicyTemplate } from '../api/policy-template-mutations';

export interface CreateTemplateModalProps {
  opened: boolean;
  onClose: () => void;
  /** The console's own tenant (the partner's or the platform's). */
  tenant: string;
  onCreated?: (created: PolicyTemplate) => void;
}

/**
 * Creates a template from policies of a tenant: the console's own, or one it manages. The template takes the
 * policies with their rules and the objects they use (locations, categories, apps) by name.
 */
export function CreateTemplateModal({ opened, onClose, tenant, onCreated }: CreateTemplateModalProps) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [source, setSource] = useState(tenant);
  const [policyIds, setPolicyIds] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const sources = useTemplateSources(tenant, opened);
  const policies = useSourcePolicies(tenant, opened ? source : '');

  const reset = () => {
    setName('');
    setDescription('');
    setSource(tenant);
    setPolicyIds([]);
    setErrors({});
  };
  const create = useCreatePolicyTemplate(tenant, {
    onSuccess: (created) => {
      showSuccess(t('policyTemplates.create.done', 'Template {{name}} was created.', { name: created.name }));
      reset();
      onClose();
      onCreated?.(created);
    },
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error, t);
      if (Object.keys(fieldErrors).length) setErrors(fieldErrors);
      else
        showMutationError(t, error, {
          title: t('policyTemplates.create.failed', 'The template was not created'),
          fieldsOnForm: true,
        });
    },
  });

  const submit = () => {
    const problems: Record<string, string> = {};
    if (!name.trim()) problems.name = t('validation.required', 'Required');
    if (policyIds.length === 0) problems.policyIds = t('validation.required', 'Required');
    setErrors(problems);
    if (Object.keys(problems).length) return;
    create.mutate({ name: name.trim(), description: description.trim(), sourceTenant: source, policyIds });
  };
  const close = () => {
    if (create.isPending) return;
    reset();
    onClose();
  };
  const sourceOptions = [
    {
      value: tenant,
      label: t('policyTemplates.create.ownTenant', '{{name}} (this console)', { name: tenant }),
    },
    ...(sources.data?.items ?? [])
      .filter((s) => s.name !== tenant)
      .map((s) => ({ value: s.name, label: `${s.displayName} (${s.name})` })),
  ];

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('policyTemplates.create.title', 'Create template')}
      centered
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <TextInput
            label={t('policyTemplates.create.name', 'Name')}
            required
            maxLength={100}
            data-autofocus
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
          />
          <Textarea
            label={t('policyTemplates.create.description', 'Description')}
            maxLength={500}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            error={errors.description}
          />
          <Select
            label={t('policyTemplates.create.source', 'Take policies from')}
            data={sourceOptions}
            searchable
            allowDeselect={false}
            value={source}
            onChange={(value) => {
              setSource(value ?? tenant);
              setPolicyIds([]);
            }}
            error={errors.sourceTenant}
          />
          <MultiSelect
            label={t('policyTemplates.create.policies', 'Policies')}
            required
            searchable
            data={(policies.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            value={policyIds}
            onChange={setPolicyIds}
            nothingFoundMessage={t('policyTemplates.create.noPolicies', 'This tenant has no policies.')}
            error={errors.policyIds ?? errors['policyIds.0']}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel', 'Cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('policyTemplates.create.submit', 'Create template')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
