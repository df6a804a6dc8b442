import { Clock, MessageSquare } from 'lucide-react';
import { PageHero } from './page-hero';

/** Spec part 2 §9 default business hours. */
const HOURS = [
  ['Monday – Friday', '9:00 AM – 6:00 PM'],
  ['Saturday', '10:00 AM – 4:00 PM'],
  ['Sunday', 'Closed'],
] as const;

export function ContactPage() {
  return (
    <>
      <PageHero title="Get in Touch" />
      <section className="mx-auto grid max-w-6xl gap-6 px-4 py-16 md:grid-cols-2">
        <div className="rounded-xl border bg-card p-6">
          <MessageSquare aria-hidden className="size-6 text-primary" />
          <h2 className="mt-4 text-lg font-semibold">Send us a message</h2>
          <p className="mt-2 text-sm text-muted-foreground">The contact form is not available yet.</p>
        </div>
        <div className="rounded-xl border bg-card p-6">
          <Clock aria-hidden className="size-6 text-primary" />
          <h2 className="mt-4 text-lg font-semibold">Business hours</h2>
          <dl className="mt-4 grid gap-2 text-sm">
            {HOURS.map(([days, hours]) => (
              <div key={days} className="flex justify-between gap-4 border-b pb-2 last:border-0">
                <dt className="text-muted-foreground">{days}</dt>
                <dd className="font-medium">{hours}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>
    </>
  );
}
