import {
  Alert,
  Anchor,
  Button,
  Center,
  Divider,
  Paper,
  PasswordInput,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError } from '@svc/client';
import { messageOf } from '../api/errors';
import { useSession } from '../api/session';
import { checkToken, canReturnTo, loginKind, oidcLoginUrl, passwordSignIn } from '../api/sign-in';

export const RETURN_KEY = 'svc.console.after-sign-in';

function PasswordForm({ onToken }: { onToken: (t: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        setBusy(true);
        setError(null);
        passwordSignIn(String(data.get('username')), String(data.get('password')))
          .then(onToken)
          .catch((err) =>
            setError(
              err instanceof ApiError && err.status === 401
                ? 'Wrong username or password.'
                : messageOf(err),
            ),
          )
          .finally(() => setBusy(false));
      }}
    >
      <Stack>
        <TextInput name="username" label="Username or email" autoComplete="username" required />
        <PasswordInput name="password" label="Password" autoComplete="current-password" required />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit" loading={busy}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}

function OidcButton() {
  const { config } = useSession();
  const origin = window.location.origin;
  const trusted = canReturnTo(origin, config?.Login?.TrustedClients ?? []);
  return (
    <Stack>
      <Button component="a" href={oidcLoginUrl(origin)} disabled={!trusted}>
        Sign in with your identity provider
      </Button>
      {!trusted && (
        <Alert color="yellow" title="Sign-in cannot return here">
          This cluster does not list {origin} in Login.TrustedClients, so the identity provider
          cannot send you back to the console. Ask an administrator to add it, or paste a token
          below.
        </Alert>
      )}
    </Stack>
  );
}

function TokenForm({ onToken }: { onToken: (t: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const token = String(new FormData(e.currentTarget).get('token')).trim();
        checkToken(token)
          .then(() => onToken(token))
          .catch((err) =>
            setError(
              err instanceof ApiError && err.status === 401
                ? 'This token is not valid (unknown, expired or revoked).'
                : messageOf(err),
            ),
          );
      }}
    >
      <Stack>
        <Textarea name="token" label="API token" autosize minRows={2} required />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit" variant="default">
          Use this token
        </Button>
      </Stack>
    </form>
  );
}

/** Sign in with the configured provider, or with a pasted token. */
export default function SignInPage() {
  const { config, token, notice, signIn } = useSession();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from;
  const [pasting, setPasting] = useState(false);
  if (token) return <Navigate to={from ?? '/'} replace />;
  const kind = loginKind(config);
  const done = (t: string) => {
    signIn(t);
    navigate(from ?? '/', { replace: true });
  };
  if (from) sessionStorage.setItem(RETURN_KEY, from);
  return (
    <Center mih="100vh" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w={420} component="main">
        <Stack>
          <Title order={1} size="h2">
            Sign in to svc
          </Title>
          {config && (
            <Text size="sm" c="dimmed">
              Cluster {config.ClusterID}
            </Text>
          )}
          {notice && (
            <Alert color="blue" role="status">
              {notice}
            </Alert>
          )}
          {kind === 'password' && <PasswordForm onToken={done} />}
          {kind === 'oidc' && <OidcButton />}
          <Divider label="or" />
          {pasting ? (
            <TokenForm onToken={done} />
          ) : (
            <Anchor component="button" type="button" onClick={() => setPasting(true)}>
              Paste an API token
            </Anchor>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
