/**
 * A post body as the public page shows it: the server's rendering of the Markdown, already
 * sanitised there (marked + sanitize-html), styled with the public page's `prose-post`.
 */
export function RenderedBody({ html }: { html: string }) {
  if (html.trim() === '') return <p className="text-sm text-muted-foreground">The body is empty.</p>;
  return <div className="prose-post min-w-0 break-words" data-testid="post-preview" dangerouslySetInnerHTML={{ __html: html }} />;
}
