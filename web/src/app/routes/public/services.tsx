import { ServicesPage } from '@/features/marketing/components/services-page';

export default function ServicesRoute() {
  return <ServicesPage />;
}
