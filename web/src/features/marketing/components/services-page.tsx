import { Check } from 'lucide-react';
import { Link } from 'react-router';
import { SERVICES } from '@common/marketing/services';
import { outlineLink, PageHero, primaryLink } from './page-hero';

export function ServicesPage() {
  return (
    <>
      <PageHero title="Our Services">
        Everything you need to answer every customer message with AI, from a quick setup to custom integrations.
      </PageHero>
      <section id="pricing" aria-label="Services" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16">
        <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {SERVICES.map((service) => (
            <li
              key={service.id}
              className={`relative flex flex-col rounded-xl border bg-card p-6 ${service.popular ? 'border-primary' : ''}`}
            >
              {service.popular ? (
                <span className="absolute -top-3 left-6 rounded-full bg-primary px-3 py-0.5 text-xs font-medium text-primary-foreground">
                  Most Popular
                </span>
              ) : null}
              <h2 className="text-lg font-semibold">{service.title}</h2>
              <p className="mt-2 text-sm text-muted-foreground">{service.description}</p>
              <ul className="mt-4 grid gap-2 text-sm">
                {service.features.map((feature) => (
                  <li key={feature} className="flex items-center gap-2">
                    <Check aria-hidden className="size-4 text-primary" />
                    {feature}
                  </li>
                ))}
              </ul>
              <p className="mt-6 text-xl font-semibold">{service.price}</p>
              <Link to="/client-signup" className={`${primaryLink} mt-4`}>
                Get Started
              </Link>
            </li>
          ))}
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
