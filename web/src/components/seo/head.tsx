/** Each page's own title and description (spec part 1 §1); React 19 hoists both into <head>. */
export const APP_NAME = 'Parley';

export function Head({ title, description }: { title: string; description: string }) {
  const fullTitle = title.startsWith(APP_NAME) ? title : `${title} | ${APP_NAME}`;
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
    </>
  );
}
