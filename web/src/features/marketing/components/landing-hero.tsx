import { Bot, MessagesSquare, Workflow, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import type { HeroContent } from '@common/api/content';

const FEATURE_ICONS: Record<HeroContent['features'][number]['icon'], LucideIcon> = {
  channels: MessagesSquare,
  agents: Bot,
  automation: Workflow,
};

export const FEATURES_SECTION_ID = 'features';

/**
 * The landing page's hero (spec part 1 §2.4) from stored content: badge, heading, description,
 * three feature chips, two buttons (the secondary one scrolls to the features block: a plain
 * anchor, so it works before any script), the social-proof line and the active hero stats.
 */
export function LandingHero({ content, stats }: { content: HeroContent; stats: readonly { number: string; label: string }[] }) {
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
        <h1 className="mt-6 max-w-4xl text-4xl font-bold tracking-tight text-balance break-words md:text-6xl">
          {content.heading}{' '}
          <span className="bg-gradient-to-r from-primary to-sky-400 bg-clip-text text-transparent">{content.subheading}</span>
        </h1>
        <p className="mt-6 max-w-2xl text-lg text-pretty break-words text-muted-foreground">{content.description}</p>
        <ul className="mt-8 flex flex-wrap justify-center gap-3" aria-label="Highlights">
          {content.features.map((feature) => {
            const Icon = FEATURE_ICONS[feature.icon];
            return (
              <li key={feature.label} className="inline-flex items-center gap-2 rounded-full border bg-card px-3 py-1.5 text-sm">
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
          <a
            href={`#${FEATURES_SECTION_ID}`}
            className="inline-flex h-11 items-center justify-center rounded-md border border-input px-6 text-sm font-medium transition-colors hover:bg-accent"
          >
            {content.ctaSecondary}
          </a>
        </div>
        <p className="mt-6 text-sm text-muted-foreground">{content.socialProof}</p>
        {stats.length > 0 ? (
          <dl className="mt-12 grid w-full max-w-3xl grid-cols-2 gap-6 md:grid-cols-4">
            {stats.map((stat) => (
              <div key={`${stat.number}|${stat.label}`} className="flex flex-col-reverse gap-1">
                <dt className="text-sm text-muted-foreground">{stat.label}</dt>
                <dd className="text-3xl font-bold tracking-tight">{stat.number}</dd>
              </div>
            ))}
          </dl>
        ) : null}
      </div>
    </section>
  );
}
