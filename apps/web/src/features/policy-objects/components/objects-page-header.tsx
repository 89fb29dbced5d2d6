import type { ReactNode } from 'react';
import { PageHeader } from '../../../components/ui/page-header';
import { SimulateButton } from '../../policies/simulator';

/** Props of {@link ObjectsPageHeader}. */
export interface ObjectsPageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** The screen's own buttons (add, upload…), shown before "Test a request". */
  actions?: ReactNode;
}

/**
 * The header of every policy-object screen: the title, a line on what the objects do, the screen's actions and
 * "Test a request", which opens the policy simulator so the effect of a change can be checked at once.
 */
export function ObjectsPageHeader({ title, description, actions }: ObjectsPageHeaderProps) {
  return (
    <PageHeader
      title={title}
      description={description}
      actions={
        <>
          {actions}
          <SimulateButton />
        </>
      }
    />
  );
}
