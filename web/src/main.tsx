import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { ApiError } from './api/client';
import { detectLanguage, I18nProvider, loadLanguage } from './i18n';
import { router } from './routes';
import './styles.css';
import './phone.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // 4xx answers do not get better by asking again.
      retry: (count, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

// A server-rendered page stays on screen until the route's code and the visitor's language are
// loaded: rendering earlier would replace it with an empty layout, or English, for a moment.
const routeReady = router.state.initialized
  ? Promise.resolve()
  : new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (state.initialized) {
          stop();
          resolve();
        }
      });
    });
// English if the language's file fails to load.
await Promise.all([routeReady, loadLanguage(detectLanguage()).catch(() => undefined)]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <RouterProvider router={router} />
      </I18nProvider>
    </QueryClientProvider>
  </StrictMode>,
);
