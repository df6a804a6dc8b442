/** Each page's own title and description (spec part 1 §1); React 19 hoists both into <head>. */
export const APP_NAME = 'Parley';

/** A page's document title: "<title> | Parley", unless it already begins with the name. */
export function documentTitle(title: string): string {
  return title.startsWith(APP_NAME) ? title : `${title} | ${APP_NAME}`;
}

export function Head({ title, description }: { title: string; description: string }) {
  const fullTitle = documentTitle(title);
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
    </>
  );
}
