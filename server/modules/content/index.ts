/**
 * The content module (issue 15, docs/content.md): page sections with revisions, hero stats, blog
 * posts, and the public pages' reads. Server rendering calls `ContentService.publicSite()` (a
 * `SiteContent` of common/site.ts) and `findPublishedPost(slug)`, and compares `contentVersion()`
 * to know when a rendered page is stale.
 */
export { BlogPostsService, type PublicBlogPostSummary } from './blog-posts.service';
export { ContentRepository } from './content.repository';
export { contentRoutes } from './content.routes';
export { ContentService, liveIntegrations, type PublicContentRead, type PublicSections, type PublicSite } from './content.service';
export { renderMarkdown } from './markdown';
