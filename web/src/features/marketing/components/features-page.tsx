import { Check } from 'lucide-react';
import { Link } from 'react-router';
import type { IntegrationStatus } from '@common/api/content';
import type { SiteContent } from '@common/site';
import { FEATURE_CARDS } from '../content/features';
import { outlineLink, PageHero, primaryLink } from './page-hero';

const STATUS_CLASS: Record<IntegrationStatus, string> = {
  Live: 'border-success/30 bg-success/15 text-success',
  Beta: 'border-warning/30 bg-warning/15 text-warning',
  'Coming Soon': 'border-border bg-muted text-muted-foreground',
};

/**
 * Features (spec part 1 §2.5): the eight cards, the integrations grid — each status is the
 * product's own (a channel Parley supports end to end is Live) unless the editor overrides it —
 * and the call to action.
 */
export function FeaturesPage({ integrations }: { integrations: SiteContent['integrations'] }) {
  return (
    <>
      <PageHero title="Features">Everything Parley does to answer your customers, on every channel, around the clock.</PageHero>
      <section aria-label="Features" className="mx-auto max-w-6xl px-4 py-16">
        <ul className="grid gap-6 md:grid-cols-2">
          {FEATURE_CARDS.map((card) => (
            <li key={card.title} className="rounded-xl border bg-card p-6">
              <p className="text-xs font-medium tracking-wide text-primary uppercase">{card.category}</p>
              <h2 className="mt-2 text-lg font-semibold">{card.title}</h2>
              <p className="mt-2 text-sm text-muted-foreground">{card.description}</p>
              <ul className="mt-4 grid gap-1.5 text-sm">
                {card.benefits.map((benefit) => (
                  <li key={benefit} className="flex items-center gap-2">
                    <Check aria-hidden className="size-4 text-primary" />
                    {benefit}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="integrations-heading" className="border-t bg-card/30">
        <div className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="integrations-heading" className="text-center text-2xl font-bold">
            Platform integrations
          </h2>
          <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {integrations.map((integration) => (
              <li key={integration.id} className="flex items-center justify-between rounded-xl border bg-card p-4">
                <span className="font-medium">{integration.name}</span>
                <span className={`rounded-md border px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[integration.status]}`}>
                  {integration.status}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 py-16 text-center">
        <h2 className="text-2xl font-bold">See it with your own customers</h2>
        <p className="text-muted-foreground">14-day free trial · No credit card required · Cancel anytime</p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Link to="/register" className={primaryLink}>
            Start Free Trial
          </Link>
          <Link to="/contact-us" className={outlineLink}>
            Schedule Demo
          </Link>
        </div>
      </section>
    </>
  );
}
