import { Navigate } from 'react-router';

/** The old keys page: keys, test mode and the team now live in the partner console (issue 32). */
export default function ApiKeys() {
  return <Navigate to="/partner/keys" replace />;
}
