import { Alert, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import type { Gateway, LocalControlsView } from '@palisade/contracts';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { useFormatters } from '../../../lib/format-time';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { isGatewayMissing, useLocalControls, useSaveLocalControls } from '../api/local-controls';
import { useSiteGateways } from '../api/lookups';
import {
  type ControlField,
  controlsWith,
  type FieldErrors,
  fieldErrorsOf,
  isSameList,
  NO_FIELD_ERRORS,
} from '../utils/controls';
import { ControlsOverview } from './controls-overview';

/** The search parameter that names the site gateway shown. */
export const GATEWAY_PARAM = 'gateway';

/** What a screen's field gets from the frame: the list being edited, its problems, and the loaded view. */
export interface ControlFieldProps {
  /** The gateway's controls as loaded (the other lists, the chosen policies' names). */
  view: LocalControlsView;
  /** The edited list. */
  value: string[];
  onChange: (value: string[]) => void;
  errors: FieldErrors;
  /** No change allowed (the role may not update gateways). */
  isReadOnly: boolean;
}

/** Props of {@link LocalControlsFrame}. */
export interface LocalControlsFrameProps {
  /** The list this screen edits. */
  field: ControlField;
  title: string;
  /** What the site gateway does with the list locally. */
  description: string;
  /** The heading of the gateway's part, e.g. “Local policies of Berlin office”. */
  sectionTitle: (gatewayName: string) => string;
  /** The field that edits the list. */
  children: (props: ControlFieldProps) => ReactNode;
}

/** A site gateway as the selector offers it. */
const optionLabel = (gateway: Gateway) =>
  gateway.region ? `${gateway.name} · ${gateway.region}` : gateway.name;

/** “Last saved …” or “never saved”, and whether there are changes not saved yet. */
function SaveState({ view, isDirty }: { view: LocalControlsView; isDirty: boolean }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const saved = view.updatedAt
    ? t('localControls.lastSaved', 'Last saved {{date}}.', {
        date: format.dateTime(view.updatedAt),
      })
    : t('localControls.neverSaved', 'No local controls saved for this gateway yet.');
  return (
    <Text size="sm" c="dimmed" aria-live="polite">
      {saved}
      {isDirty ? (
        <Text span c="orange" size="sm" ml="xs">
          {t('localControls.unsaved', 'Changes not saved yet.')}
        </Text>
      ) : null}
    </Text>
  );
}

/** Props of {@link ControlsEditor}. */
interface ControlsEditorProps {
  tenant: string;
  field: ControlField;
  view: LocalControlsView;
  formLabel: string;
  isReadOnly: boolean;
  renderField: LocalControlsFrameProps['children'];
}

/**
 * The edited list with one Save. The draft starts as loaded; Save sends the whole controls — the other three
 * lists as loaded — and the server's problems with the list show at it; any other refusal is toasted.
 */
function ControlsEditor({ tenant, field, view, formLabel, isReadOnly, renderField }: ControlsEditorProps) {
  const { t } = useTranslation();
  // Null until the first change, so a refreshed view shows as saved.
  const [draft, setDraft] = useState<string[] | null>(null);
  const [errors, setErrors] = useState<FieldErrors>(NO_FIELD_ERRORS);
  const value = draft ?? view[field];
  const isDirty = draft !== null && !isSameList(draft, view[field]);

  const save = useSaveLocalControls(tenant, {
    onSuccess: (saved) => {
      setDraft(null);
      setErrors(NO_FIELD_ERRORS);
      showSuccess(
        t(
          'localControls.saved',
          'Local controls of “{{name}}” saved. The gateway receives them with its next bundle.',
          { name: saved.name },
        ),
      );
    },
    onError: (error, vars) => {
      const own = fieldErrorsOf(error, field, vars.body[field], t);
      if (own) setErrors(own);
      else {
        showMutationError(t, error, {
          title: t('localControls.saveFailed', 'The local controls were not saved'),
        });
      }
    },
  });

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isReadOnly || save.isPending) return;
    save.mutate({ gatewayId: view.gatewayId, body: controlsWith(view, field, value) });
  };

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={formLabel}>
      <Stack gap="md">
        {renderField({
          view,
          value,
          onChange: (next) => {
            setDraft(next);
            setErrors(NO_FIELD_ERRORS);
          },
          errors,
          isReadOnly,
        })}
        <Group justify="space-between" align="center" gap="sm">
          <SaveState view={view} isDirty={isDirty} />
          {isReadOnly ? null : (
            <Group gap="sm">
              <Button
                variant="default"
                disabled={!isDirty || save.isPending}
                onClick={() => {
                  setDraft(null);
                  setErrors(NO_FIELD_ERRORS);
                }}
              >
                {t('localControls.discard', 'Discard changes')}
              </Button>
              <Button type="submit" disabled={!isDirty} loading={save.isPending}>
                {t('localControls.save', 'Save')}
              </Button>
            </Group>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** One site gateway's part of the screen: its heading, then loading → error → the editor. */
function GatewayControls({
  tenant,
  gateway,
  field,
  sectionTitle,
  renderField,
}: {
  tenant: string;
  gateway: Gateway;
  field: ControlField;
  sectionTitle: (gatewayName: string) => string;
  renderField: LocalControlsFrameProps['children'];
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const canUpdate = useCan('gateways:update');
  const query = useLocalControls(tenant, gateway.id);
  const title = sectionTitle(query.data?.name ?? gateway.name);

  const renderBody = () => {
    if (query.isPending) {
      return <LoadingState label={t('localControls.loading', 'Loading the local controls…')} />;
    }
    if (query.isError && !query.data) {
      if (isGatewayMissing(query.error)) {
        return (
          <Text size="sm" c="dimmed">
            {t('localControls.missing', 'This site gateway no longer exists in this tenant.')}
          </Text>
        );
      }
      return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
    }
    return (
      <Stack gap="md">
        {canUpdate ? null : (
          <Alert color="gray" variant="light">
            {t('localControls.readOnly', 'Your role can see the local controls but cannot change them.')}
          </Alert>
        )}
        <ControlsEditor
          key={gateway.id}
          tenant={tenant}
          field={field}
          view={query.data}
          formLabel={title}
          isReadOnly={!canUpdate}
          renderField={renderField}
        />
      </Stack>
    );
  };

  return (
    <Paper component="section" withBorder p="md" radius="sm" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="sm">
        {title}
      </Title>
      {renderBody()}
    </Paper>
  );
}

/**
 * The frame of the four local-control screens: the page header, the choice of the site gateway (kept in the
 * address as `?gateway=<id>`, the first one by default), the gateway's list this screen is about, editable and
 * saved with the other three lists as loaded, and an overview of which site gateway has what.
 */
export function LocalControlsFrame({
  field,
  title,
  description,
  sectionTitle,
  children,
}: LocalControlsFrameProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canAdd = useCan('gateways:create');
  const gateways = useSiteGateways(tenant);
  const [searchParams, setSearchParams] = useSearchParams();

  const renderBody = () => {
    if (gateways.isPending) {
      return <LoadingState label={t('localControls.gatewaysLoading', 'Loading site gateways…')} />;
    }
    if (gateways.isError)
      return <ErrorState error={gateways.error} onRetry={() => void gateways.refetch()} />;
    // A retired gateway takes no bundle any more: there is nothing to enforce on it.
    const choices = gateways.data.items.filter((gateway) => gateway.status !== 'retired');
    if (choices.length === 0) {
      return (
        <EmptyState
          message={t(
            'localControls.noGateways',
            'This tenant has no site gateway yet. Local controls are enforced by a site gateway for the hosts on its LANs: add one first.',
          )}
          action={
            canAdd ? (
              <Button component={Link} to="/devices/new/add">
                {t('localControls.addGateway', 'Add a site gateway')}
              </Button>
            ) : null
          }
        />
      );
    }
    const wanted = searchParams.get(GATEWAY_PARAM);
    const gateway = choices.find((choice) => choice.id === wanted) ?? choices[0];
    return (
      <>
        <Stack gap={4}>
          <Select
            label={t('localControls.gateway', 'Site gateway')}
            description={t('localControls.gatewayHint', 'The site gateway whose local controls are shown.')}
            data={choices.map((choice) => ({ value: choice.id, label: optionLabel(choice) }))}
            value={gateway.id}
            onChange={(id) => {
              if (!id) return;
              setSearchParams((params) => {
                const next = new URLSearchParams(params);
                next.set(GATEWAY_PARAM, id);
                return next;
              });
            }}
            allowDeselect={false}
            searchable
            nothingFoundMessage={t('localControls.gatewayNone', 'No site gateway matches.')}
            maw={480}
          />
          {gateways.data.nextCursor !== null ? (
            <Text size="xs" c="dimmed">
              {t(
                'localControls.gatewaysTruncated',
                'The first {{count, number}} site gateways by name are offered.',
                { count: gateways.data.items.length },
              )}
            </Text>
          ) : null}
        </Stack>
        <GatewayControls
          key={gateway.id}
          tenant={tenant}
          gateway={gateway}
          field={field}
          sectionTitle={sectionTitle}
          renderField={children}
        />
        <ControlsOverview tenant={tenant} currentId={gateway.id} />
      </>
    );
  };

  return (
    <>
      <PageHeader title={title} description={description} />
      <Stack gap="lg" maw={1100}>
        {renderBody()}
      </Stack>
    </>
  );
}
