import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { ShieldIcon } from '../../components/ui/icons';
import classes from './app-shell.module.css';
import { LanguageMenu } from './language-menu';
import { TopProgress } from './top-progress';

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
        <LanguageMenu />
      </header>
      <main id="main-content" tabIndex={-1} className={classes.authMain}>
        <Outlet />
      </main>
    </div>
  );
}
