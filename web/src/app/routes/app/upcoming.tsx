import { useLocation } from 'react-router';
import { findPage } from '@common/routes';
import { UPCOMING } from '@/features/upcoming/content';
import { UpcomingScreen } from '@/features/upcoming/components/upcoming-screen';

export default function UpcomingRoute() {
  const { pathname } = useLocation();
  const page = findPage(pathname);
  return <UpcomingScreen content={page ? UPCOMING[page.name] : undefined} />;
}
