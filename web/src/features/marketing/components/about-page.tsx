import { Link } from 'react-router';
import type { AboutContent, ContactContent } from '@common/api/content';
import { outlineLink, PageHero, primaryLink } from './page-hero';

/** About (spec part 2 "Public pages"): hero, mission, four stats, three values, call to action. */
export function AboutPage({ about, contactEmail }: { about: AboutContent; contactEmail: ContactContent['email'] }) {
  return (
    <>
      <PageHero title="About Us">{about.mission}</PageHero>
      <section className="mx-auto grid max-w-6xl gap-10 px-4 py-16 md:grid-cols-2">
        <div>
          <h2 className="text-2xl font-bold">Our mission</h2>
          <p className="mt-4 break-words whitespace-pre-line text-muted-foreground">{about.description}</p>
        </div>
        <dl className="grid grid-cols-2 gap-6">
          {about.stats.map((stat) => (
            <div key={`${stat.number}|${stat.label}`} className="flex flex-col-reverse gap-1 rounded-xl border bg-card p-5">
              <dt className="text-sm text-muted-foreground">{stat.label}</dt>
              <dd className="text-3xl font-bold break-words">{stat.number}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="border-t bg-card/30">
        <div className="mx-auto max-w-6xl px-4 py-16">
          <h2 className="text-center text-2xl font-bold">Our values</h2>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {about.values.map((value) => (
              <li key={value.title} className="rounded-xl border bg-card p-6">
                <h3 className="font-semibold">{value.title}</h3>
                <p className="mt-2 text-sm break-words text-muted-foreground">{value.description}</p>
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
          <a href={`mailto:${contactEmail}`} className={outlineLink}>
            Contact Our Team
          </a>
        </div>
      </section>
    </>
  );
}
