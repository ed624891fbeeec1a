import { Navigate } from 'react-router';
import { useSignedIn } from '../api/session';

/** `/` is the signed-in user's home project. */
export default function HomeRedirect() {
  const { user } = useSignedIn();
  return <Navigate to={`/projects/${user.uuid}`} replace />;
}
