import { ShieldAlert } from 'lucide-react';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import type { Role } from '@common/roles';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { reportPermissionDenied } from '../api/report-permission-denied';

/** Spec part 1 §6: the destructive alert others see on Admin Settings; the attempt is logged. */
export function PermissionDenied({ requiredRole }: { requiredRole: Role }) {
  const { pathname } = useLocation();
  useEffect(() => {
    void reportPermissionDenied({ path: pathname, requiredRole });
  }, [pathname, requiredRole]);

  return (
    <Alert variant="destructive">
      <ShieldAlert aria-hidden />
      <AlertTitle>Access Denied</AlertTitle>
      <AlertDescription>{`You don't have permission to access this feature. Required role: ${requiredRole}`}</AlertDescription>
    </Alert>
  );
}
