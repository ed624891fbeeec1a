import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { queryClient } from './api/query-client';
import { SessionProvider } from './api/session';
import { router } from './app/routes';
import { theme } from './app/theme';

/*
 * Mantine's styles come from its static CSS files: no <style> elements are injected at run time
 * (CSS variables and global classes off), so the gateway's Content-Security-Policy can allow
 * styles from the console's own origin only.
 */
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} withCssVariables={false} withGlobalClasses={false}>
      <Notifications position="bottom-right" />
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
