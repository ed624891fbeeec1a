import { Center, Loader, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { messageOf } from '../api/errors';
import { useSession } from '../api/session';
import { checkToken } from '../api/sign-in';
import { ErrorBox } from '../ui/ErrorBox';
import { RETURN_KEY } from './SignInPage';

/**
 * Where a login through the identity provider returns (`/token?api_token=…`): the token is taken
 * out of the address bar at once, checked, and kept.
 */
export default function TokenLanding() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [token] = useState(() => new URLSearchParams(window.location.search).get('api_token'));
  const [error, setError] = useState<unknown>(() =>
    token ? null : new Error('The sign-in did not send a token back.'),
  );
  const started = useRef(false);
  useEffect(() => {
    window.history.replaceState(null, '', '/token');
    if (started.current || !token) return;
    started.current = true;
    checkToken(token)
      .then(() => {
        signIn(token);
        const to = sessionStorage.getItem(RETURN_KEY) ?? '/';
        sessionStorage.removeItem(RETURN_KEY);
        navigate(to, { replace: true });
      })
      .catch((err) => setError(new Error(`Sign-in failed: ${messageOf(err)}`)));
  }, [token, signIn, navigate]);
  return (
    <Center mih="100vh">
      {error ? (
        <Stack>
          <ErrorBox error={error} />
          <Link to="/sign-in">Back to sign in</Link>
        </Stack>
      ) : (
        <Loader aria-label="Signing in" />
      )}
    </Center>
  );
}
