import { BarChart3, Check, MessageSquare, Plug, Rocket, Users, Workflow, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import type { ServicesContent } from '@common/api/content';
import { outlineLink, PageHero, primaryLink } from './page-hero';

const ICONS: Record<ServicesContent['services'][number]['icon'], LucideIcon> = {
  message: MessageSquare,
  workflow: Workflow,
  rocket: Rocket,
  plug: Plug,
  users: Users,
  chart: BarChart3,
};

/** Services (spec part 2 "Public pages"): the six stored cards, 'Most Popular', Get Started, call to action. */
export function ServicesPage({ content }: { content: ServicesContent }) {
  return (
    <>
      <PageHero title="Our Services">
        Everything you need to answer every customer message with AI, from a quick setup to custom integrations.
      </PageHero>
      <section id="pricing" aria-label="Services" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16">
        <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {content.services.map((service) => {
            const Icon = ICONS[service.icon];
            return (
              <li key={service.id} className={`relative flex flex-col rounded-xl border bg-card p-6 ${service.popular ? 'border-primary' : ''}`}>
                {service.popular ? (
                  <span className="absolute -top-3 left-6 rounded-full bg-primary px-3 py-0.5 text-xs font-medium text-primary-foreground">
                    Most Popular
                  </span>
                ) : null}
                <Icon aria-hidden className="size-6 text-primary" />
                <h2 className="mt-4 text-lg font-semibold break-words">{service.title}</h2>
                <p className="mt-2 text-sm break-words text-muted-foreground">{service.description}</p>
                <ul className="mt-4 grid gap-2 text-sm">
                  {service.features.map((feature) => (
                    <li key={feature} className="flex items-start gap-2 break-words">
                      <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
                      {feature}
                    </li>
                  ))}
                </ul>
                <p className="mt-auto pt-6 text-xl font-semibold">{service.price}</p>
                <Link to="/client-signup" className={`${primaryLink} mt-4`}>
                  Get Started
                </Link>
              </li>
            );
          })}
        </ul>
      </section>
      <section className="border-t">
        <div className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 py-16 text-center">
          <h2 className="text-2xl font-bold">Not sure where to start?</h2>
          <p className="max-w-xl text-muted-foreground">Tell us about your channels and volume and we will suggest a plan.</p>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Link to="/contact-us" className={primaryLink}>
              Schedule Free Consultation
            </Link>
            <a href="#pricing" className={outlineLink}>
              View Pricing Details
            </a>
          </div>
        </div>
      </section>
    </>
  );
}
