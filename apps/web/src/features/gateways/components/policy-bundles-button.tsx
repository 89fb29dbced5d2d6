import { Button, type ButtonProps, Drawer } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BundleHistory } from './bundle-history';

/**
 * "Policy bundles": opens the tenant's bundle history (compare, roll back) in a side panel. The history is asked
 * for only while the panel is open.
 */
export function PolicyBundlesButton({ tenant, ...buttonProps }: { tenant: string } & ButtonProps) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" {...buttonProps} onClick={() => setOpen(true)}>
        {t('gateways.bundles.open', 'Policy bundles')}
      </Button>
      <Drawer
        opened={isOpen}
        onClose={() => setOpen(false)}
        position="right"
        size="64rem"
        title={t('gateways.bundles.title', 'Policy bundles')}
        closeButtonProps={{ 'aria-label': t('gateways.bundles.closePanel', 'Close policy bundles') }}
      >
        {isOpen ? <BundleHistory tenant={tenant} /> : null}
      </Drawer>
    </>
  );
}
