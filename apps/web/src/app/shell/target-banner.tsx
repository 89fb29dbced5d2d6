import { Button } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EyeIcon, PencilIcon } from '../../components/ui/icons';
import { isPartnerAdmin, useSession, useSetWorkingTenant, useWorkingTenant } from '../../lib/auth';
import { tenantDisplayName } from '../../lib/tenant-names';
import classes from './app-shell.module.css';

/**
 * Under the header while a partner (or the platform) works in a tenant it manages: whose tenant it is, for which
 * partner, and in which mode (partner-edit mode), with a button to switch to the other mode. The sentence is a
 * status region, so a screen reader announces a change of mode; the band is a labelled region to find it by.
 * The working tenant is in edit mode only when the session opened exactly it in edit mode (the server refuses
 * writes otherwise); a session that opened no tenant at all still writes (legacy), so that counts as edit mode.
 */
export function TargetBanner() {
  const { t } = useTranslation();
  const { session } = useSession();
  const tenant = useWorkingTenant();
  const setWorkingTenant = useSetWorkingTenant();
  const [isSwitching, setSwitching] = useState(false);
  if (!isPartnerAdmin(session) || tenant === session.tenant) return null;

  const target = session.target ?? null;
  const isEdit = target === null || (target.tenant === tenant && target.edit);
  const names = { tenant: tenantDisplayName(session, tenant), partner: session.tenantDisplayName };

  async function switchMode() {
    // Kept focusable while the call runs (a disabled button would drop the focus); a second press waits.
    if (isSwitching) return;
    setSwitching(true);
    try {
      await setWorkingTenant(tenant, { edit: !isEdit });
    } finally {
      setSwitching(false);
    }
  }

  return (
    <section
      className={classes.targetBanner}
      data-mode={isEdit ? 'edit' : 'read-only'}
      aria-label={t('shell.target.region', 'Partner access')}
    >
      <span className={classes.targetIcon}>{isEdit ? <PencilIcon size={18} /> : <EyeIcon size={18} />}</span>
      <p role="status" className={classes.targetText}>
        {isEdit
          ? t('shell.target.edit', 'Working in {{tenant}} for {{partner}} — edit mode', names)
          : t('shell.target.readOnly', 'Working in {{tenant}} for {{partner}} — read-only', names)}
      </p>
      <Button
        className={classes.targetButton}
        size="compact-sm"
        variant="default"
        aria-busy={isSwitching || undefined}
        onClick={() => void switchMode()}
      >
        {isEdit
          ? t('shell.target.toReadOnly', 'Switch to read-only')
          : t('shell.target.toEdit', 'Switch to edit mode')}
      </Button>
    </section>
  );
}
