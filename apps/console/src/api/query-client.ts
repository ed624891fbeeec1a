import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isSignedOut } from './errors';

let signedOut: () => void = () => undefined;

/** Registers what happens when any call answers 401 (the session's token no longer works). */
export function onSignedOut(fn: () => void): () => void {
  signedOut = fn;
  return () => {
    if (signedOut === fn) signedOut = () => undefined;
  };
}

const watch = (err: unknown) => {
  if (isSignedOut(err)) signedOut();
};

/** One cache for the console; any 401 ends the session with a message, never a blank page. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: watch }),
  mutationCache: new MutationCache({ onError: watch }),
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      refetchOnWindowFocus: false,
      retry: (n, err) => !isSignedOut(err) && n < 1,
    },
  },
});
