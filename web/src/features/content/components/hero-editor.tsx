import { HERO_FEATURE_ICONS } from '@common/api/content';
import { FieldGroup, SelectField, TextField } from './fields';
import { HeroStatsCard } from './hero-stats-card';
import { SectionEditor } from './section-editor';

export const HERO_ICON_LABELS: Record<(typeof HERO_FEATURE_ICONS)[number], string> = {
  channels: 'Channels',
  agents: 'AI agents',
  automation: 'Automation',
};
const ICON_OPTIONS = HERO_FEATURE_ICONS.map((icon) => ({ value: icon, label: HERO_ICON_LABELS[icon] }));

/** The landing page's hero (spec part 1 §2.4, part 2 §3 hero content), and its stats card. */
export function HeroEditor() {
  return (
    <div className="grid min-w-0 gap-6">
      <SectionEditor section="hero" description="The top of the landing page: its badge, heading, buttons and feature chips.">
        {(form) => (
          <>
            <TextField form={form} idPrefix="hero" name="badge" label="Badge" />
            <TextField form={form} idPrefix="hero" name="heading" label="Heading" />
            <TextField form={form} idPrefix="hero" name="subheading" label="Subheading" />
            <TextField form={form} idPrefix="hero" name="description" label="Description" multiline rows={4} />
            <div className="grid min-w-0 gap-4 sm:grid-cols-2">
              <TextField form={form} idPrefix="hero" name="ctaPrimary" label="Primary button" />
              <TextField form={form} idPrefix="hero" name="ctaSecondary" label="Secondary button" />
            </div>
            <TextField form={form} idPrefix="hero" name="socialProof" label="Social proof" />
            <div className="grid min-w-0 gap-3">
              {[0, 1, 2].map((i) => (
                <FieldGroup key={i} legend={`Feature chip ${i + 1}`}>
                  <div className="grid min-w-0 gap-3 sm:grid-cols-[12rem_1fr]">
                    <SelectField form={form} idPrefix="hero" name={`features.${i}.icon`} label="Icon" options={ICON_OPTIONS} />
                    <TextField form={form} idPrefix="hero" name={`features.${i}.label`} label="Label" />
                  </div>
                </FieldGroup>
              ))}
            </div>
          </>
        )}
      </SectionEditor>
      <HeroStatsCard />
    </div>
  );
}
