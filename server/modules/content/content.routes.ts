/**
 * HTTP edge of common/api/content.ts (routes listed there). The panel's routes are for admins'
 * sessions only (no API key scope: publishing is done in the panel); the public reads need no
 * sign-in and answer conditional GETs (ETag, Last-Modified on the content, 304).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  blogPostDetail,
  blogPostInput,
  blogPostParams,
  blogPostsResponse,
  blogSlugParams,
  contentSectionsResponse,
  heroStatParams,
  heroStatsResponse,
  previewInput,
  previewResponse,
  publicBlogPost,
  publicBlogPostsResponse,
  publicContent,
  reorderHeroStatInput,
  resetSectionInput,
  revisionDetail,
  revisionParams,
  revisionsResponse,
  saveHeroStatsInput,
  saveSectionInput,
  savedSection,
  sectionParams,
  toggleHeroStatInput,
  updateBlogPostInput,
} from '../../../common/api/content';
import { requireUser } from '../../http/access';
import type { BlogPostsService } from './blog-posts.service';
import { etagOf, notModified } from '../../http/conditional-get';
import type { ContentService } from './content.service';

export interface ContentRoutesOptions {
  contentService: ContentService;
  blogPostsService: BlogPostsService;
}

/** A conditional GET whose copy is current: no body. */
const notModifiedResponse = z.undefined().describe('Not modified: the copy the request named (If-None-Match / If-Modified-Since) is current');

const CONFLICT = 'The answer is 409 CONFLICT when `version` is not the stored version (someone saved since): nothing is stored.';

export const contentRoutes: FastifyPluginAsyncZod<ContentRoutesOptions> = async (app, { contentService: content, blogPostsService: posts }) => {
  const admin = { access: ['admin'] as const };
  const tags = ['content'];
  const blogTags = ['blog'];

  // Page content

  app.get(
    '/api/v1/content',
    { config: admin, schema: { tags, summary: 'Every page section, stored or default (version 0)', response: { 200: contentSectionsResponse } } },
    async () => ({ sections: await content.findSections() }),
  );

  app.put(
    '/api/v1/content/:section',
    {
      config: admin,
      schema: {
        tags,
        summary: "Save a section (Save Changes); `data` is checked against the section's schema and sanitised",
        description: CONFLICT,
        params: sectionParams,
        body: saveSectionInput,
        response: { 200: savedSection },
      },
    },
    async (request) => content.saveSection(requireUser(request).id, request.params.section, request.body),
  );

  app.post(
    '/api/v1/content/:section/reset',
    {
      config: admin,
      schema: {
        tags,
        summary: "Reset to Defaults: the defaults as a new version (the hero's also puts back the default hero stats)",
        description: CONFLICT,
        params: sectionParams,
        body: resetSectionInput,
        response: { 200: savedSection },
      },
    },
    async (request) => content.resetSection(requireUser(request).id, request.params.section, request.body),
  );

  app.get(
    '/api/v1/content/:section/revisions',
    { config: admin, schema: { tags, summary: "A section's revisions, newest first (the latest 200)", params: sectionParams, response: { 200: revisionsResponse } } },
    async (request) => ({ revisions: await content.findRevisions(request.params.section) }),
  );

  app.get(
    '/api/v1/content/:section/revisions/:revisionId',
    { config: admin, schema: { tags, summary: 'One revision with its document', params: revisionParams, response: { 200: revisionDetail } } },
    async (request) => content.getRevision(request.params.section, request.params.revisionId),
  );

  app.post(
    '/api/v1/content/:section/revisions/:revisionId/restore',
    {
      config: admin,
      schema: { tags, summary: "Restore: an earlier revision's document as a new version", description: CONFLICT, params: revisionParams, body: resetSectionInput, response: { 200: savedSection } },
    },
    async (request) => content.restoreRevision(requireUser(request).id, request.params.section, request.params.revisionId, request.body),
  );

  // Hero stats

  app.get(
    '/api/v1/content/hero-stats',
    { config: admin, schema: { tags, summary: 'The hero stats, hidden ones too, in display order', response: { 200: heroStatsResponse } } },
    async () => ({ stats: await content.findHeroStats() }),
  );

  app.put(
    '/api/v1/content/hero-stats',
    {
      config: admin,
      schema: { tags, summary: 'Save the hero stats: the whole list in display order (stats left out are removed)', body: saveHeroStatsInput, response: { 200: heroStatsResponse } },
    },
    async (request) => ({ stats: await content.saveHeroStats(request.body) }),
  );

  app.patch(
    '/api/v1/content/hero-stats/:id',
    { config: admin, schema: { tags, summary: 'Show or hide a hero stat', params: heroStatParams, body: toggleHeroStatInput, response: { 200: heroStatsResponse } } },
    async (request) => ({ stats: await content.setHeroStatActive(request.params.id, request.body.isActive) }),
  );

  app.post(
    '/api/v1/content/hero-stats/:id/reorder',
    {
      config: admin,
      schema: { tags, summary: 'Move a hero stat to a 0-based position (reorder_hero_stats)', params: heroStatParams, body: reorderHeroStatInput, response: { 200: heroStatsResponse } },
    },
    async (request) => ({ stats: await content.reorderHeroStat(request.params.id, request.body) }),
  );

  // Blog posts

  app.get(
    '/api/v1/blog-posts',
    { config: admin, schema: { tags: blogTags, summary: 'Every post, drafts too, newest first', response: { 200: blogPostsResponse } } },
    async () => ({ posts: await posts.findPosts() }),
  );

  app.post(
    '/api/v1/blog-posts',
    {
      config: admin,
      schema: { tags: blogTags, summary: 'Create a post (slug made from the title when empty)', body: blogPostInput, response: { 201: blogPostDetail } },
    },
    async (request, reply) => reply.status(201).send(await posts.createPost(requireUser(request).id, request.body)),
  );

  app.post(
    '/api/v1/blog-posts/preview',
    { config: admin, schema: { tags: blogTags, summary: 'The Markdown body as the public page will show it', body: previewInput, response: { 200: previewResponse } } },
    async (request) => posts.preview(request.body.body),
  );

  app.get(
    '/api/v1/blog-posts/:id',
    { config: admin, schema: { tags: blogTags, summary: 'One post with its Markdown and HTML', params: blogPostParams, response: { 200: blogPostDetail } } },
    async (request) => posts.getPost(request.params.id),
  );

  app.put(
    '/api/v1/blog-posts/:id',
    {
      config: admin,
      schema: {
        tags: blogTags,
        summary: 'Update a post',
        description: 'The answer is 409 CONFLICT when `version` is not the stored version (someone saved since).',
        params: blogPostParams,
        body: updateBlogPostInput,
        response: { 200: blogPostDetail },
      },
    },
    async (request) => posts.updatePost(requireUser(request).id, request.params.id, request.body),
  );

  app.delete(
    '/api/v1/blog-posts/:id',
    { config: admin, schema: { tags: blogTags, summary: 'Delete a post', params: blogPostParams } },
    async (request, reply) => {
      await posts.deletePost(request.params.id);
      return reply.status(204).send();
    },
  );

  // Public

  app.get(
    '/api/v1/public/content',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "The public pages' content: sections, active hero stats in order, integrations with their status",
        description: 'ETag and Last-Modified; `Cache-Control: no-cache`; 304 to a conditional GET whose copy is current.',
        response: { 200: publicContent, 304: notModifiedResponse },
      },
    },
    async (request, reply) => {
      const read = await content.getPublicContent();
      const lastModified = read.content.updatedAt === null ? null : new Date(read.content.updatedAt);
      if (notModified(request, reply, { etag: read.etag, lastModified })) return reply.status(304).send(undefined);
      return read.content;
    },
  );

  app.get(
    '/api/v1/public/blog-posts',
    { config: { access: 'public' }, schema: { tags: blogTags, summary: 'Published posts, most recently published first', response: { 200: publicBlogPostsResponse, 304: notModifiedResponse } } },
    async (request, reply) => {
      const body = { posts: await posts.findPublishedPosts() };
      if (notModified(request, reply, { etag: etagOf(body), lastModified: null })) return reply.status(304).send(undefined);
      return body;
    },
  );

  app.get(
    '/api/v1/public/blog-posts/:slug',
    { config: { access: 'public' }, schema: { tags: blogTags, summary: 'A published post with its HTML (404 for drafts)', params: blogSlugParams, response: { 200: publicBlogPost, 304: notModifiedResponse } } },
    async (request, reply) => {
      const post = await posts.getPublishedPost(request.params.slug);
      if (notModified(request, reply, { etag: etagOf(post), lastModified: null })) return reply.status(304).send(undefined);
      return post;
    },
  );
};
