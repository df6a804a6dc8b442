import { FieldGroup, TextField } from './fields';
import { SectionEditor } from './section-editor';

/** The About page: mission, description, three values and four stats (spec part 2 §3 about content). */
export function AboutEditor() {
  return (
    <SectionEditor section="about" description="The About page's mission, description, three values and four stats.">
      {(form) => (
        <>
          <TextField form={form} idPrefix="about" name="mission" label="Mission" multiline rows={3} />
          <TextField form={form} idPrefix="about" name="description" label="Description" multiline rows={4} />
          <div className="grid min-w-0 gap-3 lg:grid-cols-3">
            {[0, 1, 2].map((i) => (
              <FieldGroup key={i} legend={`Value ${i + 1}`}>
                <TextField form={form} idPrefix="about" name={`values.${i}.title`} label="Title" />
                <TextField form={form} idPrefix="about" name={`values.${i}.description`} label="Description" multiline rows={3} />
              </FieldGroup>
            ))}
          </div>
          <div className="grid min-w-0 gap-3 sm:grid-cols-2">
            {[0, 1, 2, 3].map((i) => (
              <FieldGroup key={i} legend={`Stat ${i + 1}`}>
                <TextField form={form} idPrefix="about" name={`stats.${i}.number`} label="Number" />
                <TextField form={form} idPrefix="about" name={`stats.${i}.label`} label="Label" />
              </FieldGroup>
            ))}
          </div>
        </>
      )}
    </SectionEditor>
  );
}
