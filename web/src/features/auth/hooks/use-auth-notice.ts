import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { authNoticeFor, type NoticeScreen } from '../lib/messages';

/** Shows the toast for `?error=` / `?verified=` once, then drops those parameters from the URL. */
export function useAuthNotice(screen: NoticeScreen): void {
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    if (!params.has('error') && !params.has('verified')) return;
    const notice = authNoticeFor(params, screen);
    if (notice) {
      // A fixed id keeps StrictMode's second effect run from showing it twice.
      const options = { id: `auth-notice-${notice.title}`, description: notice.description };
      if (notice.kind === 'error') toast.error(notice.title, options);
      else toast.success(notice.title, options);
    }
    const next = new URLSearchParams(params);
    next.delete('error');
    next.delete('verified');
    setParams(next, { replace: true });
  }, [params, setParams, screen]);
}
