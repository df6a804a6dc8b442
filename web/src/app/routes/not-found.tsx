import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { Head } from '@/components/seo/head';
import { reportNotFound } from '@/features/errors/api/report-not-found';
import { NotFound } from '@/features/errors/components/not-found';
import { isDocumentLoad } from '@/lib/navigation-tracker';
import { NOT_FOUND_META } from '../meta/plain-meta';

export default function NotFoundRoute() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!isDocumentLoad(pathname)) void reportNotFound({ path: pathname });
  }, [pathname]);
  return (
    <>
      <Head title={NOT_FOUND_META.title} description={NOT_FOUND_META.description} />
      <NotFound />
    </>
  );
}
