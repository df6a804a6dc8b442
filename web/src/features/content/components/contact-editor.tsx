import { WEEKDAYS } from '@common/api/content';
import { FieldGroup, TextField } from './fields';
import { SectionEditor } from './section-editor';

const DAY_LABELS: Record<(typeof WEEKDAYS)[number], string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

/** The Contact page's cards and weekly hours (spec part 2 §3 contact content). */
export function ContactEditor() {
  return (
    <SectionEditor section="contact" description="The Contact page's e-mail, phone and address cards and the business hours.">
      {(form) => (
        <>
          <TextField form={form} idPrefix="contact" name="email" label="Email" type="email" />
          <TextField form={form} idPrefix="contact" name="phone" label="Phone" type="tel" />
          <TextField form={form} idPrefix="contact" name="address" label="Address" multiline rows={2} />
          <FieldGroup legend="Business hours">
            <p className="text-xs text-muted-foreground">Free text per day, e.g. 9:00 AM - 6:00 PM; write Closed for a closed day.</p>
            <div className="grid min-w-0 gap-3 sm:grid-cols-2">
              {WEEKDAYS.map((day) => (
                <TextField key={day} form={form} idPrefix="contact" name={`hours.${day}`} label={DAY_LABELS[day]} />
              ))}
            </div>
          </FieldGroup>
        </>
      )}
    </SectionEditor>
  );
}
