import { BlogPage } from '@/features/marketing/components/blog-page';

export default function BlogRoute() {
  return <BlogPage />;
}
