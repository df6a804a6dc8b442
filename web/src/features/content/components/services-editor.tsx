import { SERVICE_ICONS } from '@common/api/content';
import { FieldGroup, SelectField, SwitchField, TextField } from './fields';
import { SectionEditor } from './section-editor';

export const SERVICE_ICON_LABELS: Record<(typeof SERVICE_ICONS)[number], string> = {
  message: 'Message',
  workflow: 'Workflow',
  rocket: 'Rocket',
  plug: 'Plug',
  users: 'People',
  chart: 'Chart',
};
const ICON_OPTIONS = SERVICE_ICONS.map((icon) => ({ value: icon, label: SERVICE_ICON_LABELS[icon] }));

/** The six service cards of the Services page (spec part 2 §3 service, §9 prices). */
export function ServicesEditor() {
  return (
    <SectionEditor section="services" description="The six cards of the Services page: icon, title, description, features, price and the 'Most Popular' badge.">
      {(form) => (
        <div className="grid min-w-0 gap-4 xl:grid-cols-2">
          {[0, 1, 2, 3, 4, 5].map((i) => (
            <FieldGroup key={i} legend={`Service ${i + 1}`}>
              <SelectField form={form} idPrefix="services" name={`services.${i}.icon`} label="Icon" options={ICON_OPTIONS} />
              <TextField form={form} idPrefix="services" name={`services.${i}.title`} label="Title" />
              <TextField form={form} idPrefix="services" name={`services.${i}.description`} label="Description" multiline rows={3} />
              <TextField
                form={form}
                idPrefix="services"
                name={`services.${i}.features`}
                label="Features"
                multiline
                rows={4}
                description="One per line; blank lines are dropped."
              />
              <TextField form={form} idPrefix="services" name={`services.${i}.price`} label="Price" placeholder="From $99/month" />
              <SwitchField form={form} idPrefix="services" name={`services.${i}.popular`} label="Most Popular" description="Shows the 'Most Popular' badge on this card." />
            </FieldGroup>
          ))}
        </div>
      )}
    </SectionEditor>
  );
}
