import { Head } from '@/components/seo/head';
import { Unauthorized } from '@/features/errors/components/unauthorized';
import { PLAIN_PAGE_META } from '../meta/plain-meta';

export default function UnauthorizedRoute() {
  const meta = PLAIN_PAGE_META.unauthorized;
  return (
    <>
      <Head title={meta.title} description={meta.description} />
      <Unauthorized />
    </>
  );
}
