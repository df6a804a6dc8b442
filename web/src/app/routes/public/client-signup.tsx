import { PageHero } from '@/features/marketing/components/page-hero';
import { ClientSignup } from '@/features/onboarding/components/client-signup';
import { AppProviders } from '../../providers/app-providers';

/**
 * /client-signup, 'Choose Your AI Automation': the marketing site's hero over the onboarding form
 * (features never import each other). The public layout provides no queries: this page brings them.
 */
export default function ClientSignupRoute() {
  return (
    <AppProviders>
      <PageHero title="Choose Your AI Automation">Pick the automation that fits your business. We do the setup.</PageHero>
      <ClientSignup />
    </AppProviders>
  );
}
