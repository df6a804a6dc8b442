import { ShieldAlert } from 'lucide-react';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import type { Role } from '@common/roles';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { reportPermissionDenied } from '../api/report-permission-denied';

/**
 * Spec part 1 §6: the destructive alert others see on Admin Settings; the attempt is logged — the
 * server records the user, their role and the time with the URL sent here (path and query) as an
 * `access.permission_denied` security event, which the admins' audit log shows.
 */
export function PermissionDenied({ requiredRole }: { requiredRole: Role }) {
  const { pathname, search } = useLocation();
  const url = `${pathname}${search}`;
  useEffect(() => {
    void reportPermissionDenied({ path: url.slice(0, 2048), requiredRole });
  }, [url, requiredRole]);

  return (
    <Alert variant="destructive" className="break-words">
      <ShieldAlert aria-hidden />
      <AlertTitle>Access Denied</AlertTitle>
      <AlertDescription>{`You don't have permission to access this feature. Required role: ${requiredRole}`}</AlertDescription>
    </Alert>
  );
}
