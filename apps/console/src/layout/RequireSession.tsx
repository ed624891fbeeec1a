import { Center, Loader } from '@mantine/core';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../api/session';
import { ErrorBox } from '../ui/ErrorBox';
import { Shell } from './Shell';

/** The signed-in part of the console: without a working token, the sign-in page. */
export function RequireSession() {
  const { token, user, userError } = useSession();
  const location = useLocation();
  if (token === null)
    return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  if (userError) return <ErrorBox error={userError} />;
  if (!user)
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  return <Shell />;
}
