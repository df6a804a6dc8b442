import { Check } from 'lucide-react';
import { Link } from 'react-router';
import { outlineLink, PageHero, primaryLink } from './page-hero';

/** The template offers of spec part 2 §3 and §9. */
const OFFERS = [
  {
    id: 'instagram-dm',
    name: 'Instagram DM AI',
    description: 'Answer Instagram direct messages and qualify leads automatically.',
    price: '$299/month',
    features: ['Instant DM replies', 'Lead qualification', 'Handoff to your team'],
  },
  {
    id: 'facebook-leads',
    name: 'Facebook Lead AI',
    description: 'Follow up on Facebook leads and Messenger conversations within seconds.',
    price: '$399/month',
    features: ['Lead follow-up', 'Messenger replies', 'CRM-ready summaries'],
  },
  {
    id: 'whatsapp-business',
    name: 'WhatsApp Business AI',
    description: 'A WhatsApp assistant for orders, bookings and support questions.',
    price: '$499/month',
    features: ['Orders and bookings', 'Support answers', 'Business hours rules'],
  },
] as const;

const NEXT_STEPS = [
  'We contact you within 24 hours',
  'We set up your template',
  'You connect your social accounts',
  'You go live',
] as const;

export function ClientSignupPage() {
  return (
    <>
      <PageHero title="Choose Your AI Automation">Pick the automation that fits your business. We do the setup.</PageHero>
      <section aria-label="Automations" className="mx-auto max-w-6xl px-4 py-16">
        <ul className="grid gap-6 md:grid-cols-3">
          {OFFERS.map((offer) => (
            <li key={offer.id} className="flex flex-col rounded-xl border bg-card p-6">
              <h2 className="text-lg font-semibold">{offer.name}</h2>
              <p className="mt-2 text-sm text-muted-foreground">{offer.description}</p>
              <ul className="mt-4 grid gap-1.5 text-sm">
                {offer.features.map((feature) => (
                  <li key={feature} className="flex items-center gap-2">
                    <Check aria-hidden className="size-4 text-primary" />
                    {feature}
                  </li>
                ))}
              </ul>
              <p className="mt-6 text-xl font-semibold">{offer.price}</p>
            </li>
          ))}
        </ul>
        <div className="mx-auto mt-12 grid max-w-3xl gap-8 rounded-xl border bg-card p-8 md:grid-cols-2">
          <div>
            <h2 className="text-lg font-semibold">What happens next?</h2>
            <ol className="mt-4 grid list-inside list-decimal gap-2 text-sm text-muted-foreground">
              {NEXT_STEPS.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
          </div>
          <div className="flex flex-col justify-center gap-3">
            <Link to="/register" className={primaryLink}>
              Create Your Account
            </Link>
            <Link to="/contact-us" className={outlineLink}>
              Talk to Us First
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
