import { Button } from '@mantine/core';
import type { PolicyDraft } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/auth';
import { FlaskIcon } from '../components/icons';
import { SimulatorDrawer } from './simulator-drawer';

/** Props of {@link SimulateButton}. */
export interface SimulateButtonProps {
  /** An unsaved policy to decide against (the editor's "Test a request"). */
  draft?: PolicyDraft;
  /** The button text; "Test a request" by default. */
  label?: string;
}

/**
 * A "Test a request" button that opens the policy simulator in a drawer. Page headers of the policy and
 * object screens carry it; the editor passes its unsaved draft. Hidden without `policies:view`.
 */
export function SimulateButton({ draft, label }: SimulateButtonProps) {
  const { t } = useTranslation();
  const canView = useCan('policies:view');
  const [isOpen, setOpen] = useState(false);
  if (!canView) return null;
  return (
    <>
      <Button variant="default" leftSection={<FlaskIcon />} onClick={() => setOpen(true)}>
        {label ?? t('policies.simulator.open', 'Test a request')}
      </Button>
      <SimulatorDrawer opened={isOpen} onClose={() => setOpen(false)} draft={draft} />
    </>
  );
}
