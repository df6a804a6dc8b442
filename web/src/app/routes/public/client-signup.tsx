import { ClientSignupPage } from '@/features/marketing/components/client-signup-page';

export default function ClientSignupRoute() {
  return <ClientSignupPage />;
}
