import { TextField } from './fields';
import { SectionEditor } from './section-editor';

/** The Blog page's texts: title, subtitle, category chips and the newsletter box. */
export function BlogPageEditor() {
  return (
    <SectionEditor section="blog" description="The Blog page's title, subtitle, category chips and newsletter box.">
      {(form) => (
        <>
          <TextField form={form} idPrefix="blog" name="title" label="Title" />
          <TextField form={form} idPrefix="blog" name="subtitle" label="Subtitle" multiline rows={2} />
          <TextField form={form} idPrefix="blog" name="categories" label="Categories" multiline rows={7} description="One per line; blank lines are dropped." />
          <TextField form={form} idPrefix="blog" name="newsletterTitle" label="Newsletter title" />
          <TextField form={form} idPrefix="blog" name="newsletterDescription" label="Newsletter description" multiline rows={3} />
        </>
      )}
    </SectionEditor>
  );
}
