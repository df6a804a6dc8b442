import { Newspaper } from 'lucide-react';
import { PageHero } from './page-hero';

/** Spec part 2 §3 blog categories. */
const CATEGORIES = ['All', 'Automation', 'Case Study', 'Tutorial', 'Security', 'Business', 'Development'] as const;

export function BlogPage() {
  return (
    <>
      <PageHero title="Blog">Ideas and practical guides on AI customer messaging and automation.</PageHero>
      <section className="mx-auto max-w-6xl px-4 py-16">
        <ul aria-label="Categories" className="flex flex-wrap justify-center gap-2">
          {CATEGORIES.map((category) => (
            <li key={category} className="rounded-full border px-3 py-1 text-sm text-muted-foreground">
              {category}
            </li>
          ))}
        </ul>
        <div className="mx-auto mt-12 flex max-w-lg flex-col items-center gap-3 rounded-xl border border-dashed p-10 text-center">
          <Newspaper aria-hidden className="size-8 text-muted-foreground" />
          <h2 className="text-lg font-semibold">No posts published yet</h2>
          <p className="text-sm text-muted-foreground">Articles appear here as soon as the team publishes them.</p>
        </div>
      </section>
    </>
  );
}
