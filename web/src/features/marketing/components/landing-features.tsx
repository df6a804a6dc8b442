import { BarChart3, Bot, Inbox, ShieldCheck, Siren, Workflow, type LucideIcon } from 'lucide-react';
import type { FeatureHighlight } from '../content/hero';
import { FEATURES_SECTION_ID } from './landing-hero';

const ICONS: readonly LucideIcon[] = [Inbox, Bot, Siren, Workflow, BarChart3, ShieldCheck];

export function LandingFeatures({ features }: { features: readonly FeatureHighlight[] }) {
  return (
    <section id={FEATURES_SECTION_ID} aria-labelledby="features-heading" className="scroll-mt-20 border-t bg-card/30">
      <div className="mx-auto max-w-6xl px-4 py-20">
        <h2 id="features-heading" className="text-center text-3xl font-bold tracking-tight">
          Everything your support team needs
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-muted-foreground">
          AI handles the routine, your team handles the rest, and nobody waits.
        </p>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features.map((feature, index) => {
            const Icon = ICONS[index % ICONS.length] ?? Bot;
            return (
              <li key={feature.title} className="rounded-xl border bg-card p-6">
                <Icon aria-hidden className="size-6 text-primary" />
                <h3 className="mt-4 font-semibold">{feature.title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{feature.description}</p>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
