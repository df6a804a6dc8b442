import { Link } from 'react-router';
import { DEFAULT_HERO } from '../content/hero';
import { outlineLink, PageHero, primaryLink } from './page-hero';

const VALUES = [
  {
    title: 'Customers first',
    description: 'Every message deserves a fast, accurate answer, whatever the hour.',
  },
  {
    title: 'Humans in the loop',
    description: 'AI handles the routine; people step in when judgement or empathy is needed.',
  },
  {
    title: 'Trust by design',
    description: 'Your customers’ conversations are yours: secured, access-controlled and never sold.',
  },
] as const;

export function AboutPage() {
  return (
    <>
      <PageHero title="About Us">We build AI agents that answer customer messages the way your best people would.</PageHero>
      <section className="mx-auto grid max-w-6xl gap-10 px-4 py-16 md:grid-cols-2">
        <div>
          <h2 className="text-2xl font-bold">Our mission</h2>
          <p className="mt-4 text-muted-foreground">
            Businesses lose customers to slow replies. Parley connects the channels your customers already use to AI
            agents that reply in seconds, escalate what they cannot handle, and keep your team in control.
          </p>
        </div>
        <dl className="grid grid-cols-2 gap-6">
          {DEFAULT_HERO.stats.map((stat) => (
            <div key={stat.label} className="flex flex-col-reverse gap-1 rounded-xl border bg-card p-5">
              <dt className="text-sm text-muted-foreground">{stat.label}</dt>
              <dd className="text-3xl font-bold">{stat.number}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="border-t bg-card/30">
        <div className="mx-auto max-w-6xl px-4 py-16">
          <h2 className="text-center text-2xl font-bold">Our values</h2>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {VALUES.map((value) => (
              <li key={value.title} className="rounded-xl border bg-card p-6">
                <h3 className="font-semibold">{value.title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{value.description}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 py-16 text-center">
        <h2 className="text-2xl font-bold">Ready to answer every message?</h2>
        <p className="text-muted-foreground">14-day free trial · No credit card required · Cancel anytime</p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Link to="/register" className={primaryLink}>
            Start Your Free Trial
          </Link>
          <Link to="/contact-us" className={outlineLink}>
            Contact Our Team
          </Link>
        </div>
      </section>
    </>
  );
}
