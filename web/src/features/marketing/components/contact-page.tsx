import { Clock, MessageSquare } from 'lucide-react';
import { Link } from 'react-router';
import { PageHero, primaryLink } from './page-hero';

/** Spec part 2 §9 default business hours. */
const HOURS = [
  ['Monday – Friday', '9:00 AM – 6:00 PM'],
  ['Saturday', '10:00 AM – 4:00 PM'],
  ['Sunday', 'Closed'],
] as const;

export function ContactPage() {
  return (
    <>
      <PageHero title="Get in Touch">Questions, demos or support: we reply within 24 hours.</PageHero>
      <section className="mx-auto grid max-w-6xl gap-6 px-4 py-16 md:grid-cols-2">
        <div className="rounded-xl border bg-card p-6">
          <MessageSquare aria-hidden className="size-6 text-primary" />
          <h2 className="mt-4 text-lg font-semibold">Send us a message</h2>
          <p className="mt-2 text-sm text-muted-foreground">
            The contact form opens with our content tools in an upcoming release. Until then, create an account and we
            will reach out to set up your demo.
          </p>
          <Link to="/register" className={`${primaryLink} mt-6`}>
            Create an Account
          </Link>
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
