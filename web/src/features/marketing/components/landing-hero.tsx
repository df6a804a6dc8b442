import { Bot, MessagesSquare, Workflow, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import type { HeroContent, HeroFeatureIcon } from '../content/hero';

const FEATURE_ICONS: Record<HeroFeatureIcon, LucideIcon> = {
  channels: MessagesSquare,
  agents: Bot,
  automation: Workflow,
};

export const FEATURES_SECTION_ID = 'features';

export function LandingHero({ content }: { content: HeroContent }) {
  const scrollToFeatures = () => {
    document.getElementById(FEATURES_SECTION_ID)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  return (
    <section className="relative overflow-hidden">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-x-0 -top-40 h-96 bg-gradient-to-b from-primary/25 to-transparent blur-3xl"
      />
      <div className="relative mx-auto flex max-w-6xl flex-col items-center px-4 pt-20 pb-16 text-center md:pt-28">
        <span className="rounded-full border border-primary/40 bg-primary/10 px-3 py-1 text-xs font-medium text-primary">
          {content.badge}
        </span>
        <h1 className="mt-6 max-w-4xl text-4xl font-bold tracking-tight text-balance md:text-6xl">
          {content.heading}{' '}
          <span className="bg-gradient-to-r from-primary to-sky-400 bg-clip-text text-transparent">{content.subheading}</span>
        </h1>
        <p className="mt-6 max-w-2xl text-lg text-pretty text-muted-foreground">{content.description}</p>
        <ul className="mt-8 flex flex-wrap justify-center gap-3" aria-label="Highlights">
          {content.features.map((feature) => {
            const Icon = FEATURE_ICONS[feature.icon];
            return (
              <li
                key={feature.label}
                className="inline-flex items-center gap-2 rounded-full border bg-card px-3 py-1.5 text-sm"
              >
                <Icon aria-hidden className="size-4 text-primary" />
                {feature.label}
              </li>
            );
          })}
        </ul>
        <div className="mt-10 flex flex-col gap-3 sm:flex-row">
          <Link
            to="/contact-us"
            className="inline-flex h-11 items-center justify-center rounded-md bg-primary px-6 text-sm font-medium text-primary-foreground shadow-xs transition-colors hover:bg-primary/90"
          >
            {content.ctaPrimary}
          </Link>
          <button
            type="button"
            onClick={scrollToFeatures}
            className="inline-flex h-11 items-center justify-center rounded-md border border-input px-6 text-sm font-medium transition-colors hover:bg-accent"
          >
            {content.ctaSecondary}
          </button>
        </div>
        <p className="mt-6 text-sm text-muted-foreground">{content.socialProof}</p>
        <dl className="mt-12 grid w-full max-w-3xl grid-cols-2 gap-6 md:grid-cols-4">
          {content.stats.map((stat) => (
            <div key={stat.label} className="flex flex-col-reverse gap-1">
              <dt className="text-sm text-muted-foreground">{stat.label}</dt>
              <dd className="text-3xl font-bold tracking-tight">{stat.number}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
