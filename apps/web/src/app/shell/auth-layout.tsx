import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { ShieldIcon } from '../../components/ui/icons';
import classes from './app-shell.module.css';
import { LanguageButton } from './language-button';
import { TopProgress } from './top-progress';

// The menu's popover code is not needed to paint the sign-in page: its button stands in until it arrives.
const LanguageMenu = lazy(async () => ({ default: (await import('./language-menu')).LanguageMenu }));

/** The frame of the public screens (sign-in, sign-up, verify, network error): brand, language and the screen. */
export function AuthLayout() {
  const { t } = useTranslation();
  return (
    <div className={classes.authPage}>
      <TopProgress />
      <header className={classes.authHeader}>
        <span className={classes.brand} style={{ padding: 0, height: 'auto' }}>
          <ShieldIcon size={26} />
          <span>{t('common.appName', 'Palisade')}</span>
        </span>
        <Suspense fallback={<LanguageButton />}>
          <LanguageMenu />
        </Suspense>
      </header>
      <main id="main-content" tabIndex={-1} className={classes.authMain}>
        <Outlet />
      </main>
    </div>
  );
}
