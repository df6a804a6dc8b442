import { useParams } from 'react-router';
import { Head } from '@/components/seo/head';
import { InvitationScreen } from '@/features/onboarding/components/invitation-screen';
import { PLAIN_PAGE_META } from '../../meta/plain-meta';
import { AppProviders } from '../../providers/app-providers';

/**
 * /invite/:token, an invitation to a client business (no sign-in; the link is the credential). Its
 * address is a secret: search engines are asked not to index it (here and by the server's
 * X-Robots-Tag).
 */
export default function InvitationRoute() {
  const { token = '' } = useParams();
  const meta = PLAIN_PAGE_META.invitation;
  // A plain page has no layout providing queries: this one brings its own.
  return (
    <AppProviders>
      <Head title={meta.title} description={meta.description} />
      <meta name="robots" content="noindex, nofollow" />
      <InvitationScreen token={token} />
    </AppProviders>
  );
}
