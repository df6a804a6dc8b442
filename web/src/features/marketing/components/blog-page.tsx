import { Newspaper } from 'lucide-react';
import { PageHero } from './page-hero';

/** The blog is not built yet (no posts, no content management): the page says so and nothing else. */
export function BlogPage() {
  return (
    <>
      <PageHero title="Blog" />
      <section className="mx-auto max-w-6xl px-4 py-16">
        <div className="mx-auto flex max-w-lg flex-col items-center gap-3 rounded-xl border border-dashed p-10 text-center">
          <Newspaper aria-hidden className="size-8 text-muted-foreground" />
          <h2 className="text-lg font-semibold">The blog is not available yet.</h2>
        </div>
      </section>
    </>
  );
}
