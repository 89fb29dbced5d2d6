import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/focus.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProvider } from './app/provider';
import { createAppRouter } from './app/router';
import { analytics } from './lib/analytics';
import { publicConfigQuery, startApiClient } from './lib/auth';
import { takeEmbedTokenFromAddress } from './lib/embed-credential';
import { initI18n } from './lib/i18n';
import { createQueryClient } from './lib/query-client';

// An embedded dashboard's link token is kept for the tab (never as the session) and leaves the address before
// anything reads it (the router, the session query, analytics' page views).
takeEmbedTokenFromAddress();
void initI18n();
const queryClient = createQueryClient();
const router = createAppRouter();
const navigate = (path: string) => router.navigate(path);
startApiClient(navigate, queryClient);
analytics.start(() => queryClient.fetchQuery(publicConfigQuery));

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <AppProvider queryClient={queryClient} navigate={navigate}>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
