import { DEFAULT_HERO, FEATURE_HIGHLIGHTS } from '@/features/marketing/content/hero';
import { LandingFeatures } from '@/features/marketing/components/landing-features';
import { LandingHero } from '@/features/marketing/components/landing-hero';

export default function LandingRoute() {
  return (
    <>
      <LandingHero content={DEFAULT_HERO} />
      <LandingFeatures features={FEATURE_HIGHLIGHTS} />
    </>
  );
}
