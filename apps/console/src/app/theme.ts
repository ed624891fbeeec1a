import { createTheme } from '@mantine/core';

/**
 * Mantine's default theme: its CSS variables are those of @mantine/core/styles.css, so nothing
 * here may change a variable (the provider does not inject any; colours are adjusted in
 * global.css). Component defaults only:
 * - modals do not lock scrolling, which would inject a <style> element the CSP refuses;
 * - close buttons have a name for screen readers;
 * - animations stop for people who ask their system for reduced motion.
 */
export const theme = createTheme({
  respectReducedMotion: true,
  components: {
    Modal: {
      defaultProps: {
        centered: true,
        lockScroll: false,
        closeButtonProps: { 'aria-label': 'Close' },
      },
    },
  },
});
