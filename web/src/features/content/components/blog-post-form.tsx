import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { BLOG_CATEGORIES, type BlogPostDetail } from '@common/api/content';
import { isSafeExternalUrl } from '@common/validation/sanitize';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FieldError, fieldA11y } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useCreateBlogPost } from '../api/create-blog-post';
import { usePreviewBlogPost } from '../api/preview-blog-post';
import { useUpdateBlogPost } from '../api/update-blog-post';
import {
  BLOG_FORM_FIELDS,
  blogFieldErrors,
  blogPostResolver,
  IMAGE_HINT,
  newBlogPostForm,
  SLUG_HINT,
  toBlogPostForm,
  toBlogPostInput,
  type BlogPostForm,
} from '../lib/blog-form';
import { BLOG_TOASTS, isConflict, postConflictText } from '../lib/feedback';
import { SelectField, TextField } from './fields';
import { RenderedBody } from './markdown-preview';
import { ConflictAlert } from './section-editor';

const CATEGORY_OPTIONS = BLOG_CATEGORIES.map((category) => ({ value: category, label: category }));
const STATUS_OPTIONS = [
  { value: 'draft', label: 'Draft' },
  { value: 'published', label: 'Published' },
];

/** The Markdown body with Write and Preview; the preview is the server's rendering, as the public page shows it. */
function BodyField({ form }: { form: UseFormReturn<BlogPostForm> }) {
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const preview = usePreviewBlogPost();
  const error = form.formState.errors.body?.message;
  const id = 'post-body';
  return (
    <div className="grid min-w-0 gap-2">
      <Tabs
        value={tab}
        onValueChange={(value) => {
          const next = value === 'preview' ? 'preview' : 'write';
          setTab(next);
          if (next === 'preview') preview.mutate(form.getValues('body'));
        }}
        className="min-w-0 gap-2"
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Label htmlFor={id}>Body</Label>
          <TabsList aria-label="Write or preview the body">
            <TabsTrigger value="write">Write</TabsTrigger>
            <TabsTrigger value="preview">Preview</TabsTrigger>
          </TabsList>
        </div>
        <TabsContent value="write" className="grid min-w-0 gap-2">
          <Textarea
            {...fieldA11y(id, error, true)}
            rows={14}
            className="font-mono text-sm"
            placeholder={'## A heading\n\nA paragraph with **bold** text and a [link](https://example.com).'}
            {...form.register('body')}
          />
          <p id={`${id}-description`} className="text-xs text-muted-foreground">
            Markdown. Scripts, frames and embedded objects are refused.
          </p>
        </TabsContent>
        <TabsContent value="preview" className="min-w-0">
          <div className="min-w-0 rounded-lg border p-4" aria-live="polite" aria-busy={preview.isPending}>
            {preview.isPending ? (
              <Skeleton className="h-32" />
            ) : preview.isError ? (
              <p role="alert" className="text-sm text-destructive">
                {errorMessage(preview.error, 'The preview could not be made.')}
              </p>
            ) : preview.data !== undefined ? (
              <RenderedBody html={preview.data} />
            ) : null}
          </div>
        </TabsContent>
      </Tabs>
      {error ? <FieldError id={`${id}-error`}>{error}</FieldError> : null}
    </div>
  );
}

/** The image URL with the spec's hint, and a small preview once it is a usable https URL. */
function ImageField({ form }: { form: UseFormReturn<BlogPostForm> }) {
  const image = useWatch({ control: form.control, name: 'image' });
  const usable = image.trim() !== '' && isSafeExternalUrl(image.trim());
  return (
    <div className="grid min-w-0 gap-2">
      <TextField form={form} idPrefix="post" name="image" label="Image URL" type="url" placeholder="https://images.example.com/cover.jpg" description={IMAGE_HINT} />
      {usable ? <img src={image.trim()} alt="" className="h-32 w-full max-w-xs rounded-md border object-cover" loading="lazy" referrerPolicy="no-referrer" /> : null}
    </div>
  );
}

/**
 * 'Create New Post' / 'Edit Post' (spec part 2 "Content management"): the spec's fields, plus a
 * slug, draft or published, and a Markdown body with its preview.
 */
export function BlogPostFormCard({
  post,
  author,
  onDone,
  onReload,
  reloading = false,
}: {
  /** The post to edit; none for a new one. */
  post?: BlogPostDetail | undefined;
  /** A new post's author: the signed-in editor. */
  author: string;
  onDone: () => void;
  /** Loads the newest version of the post (after a conflict). */
  onReload?: () => void;
  reloading?: boolean;
}) {
  const editing = post !== undefined;
  const [defaults] = useState<BlogPostForm>(() => (post ? toBlogPostForm(post) : newBlogPostForm(author)));
  const form = useForm<BlogPostForm>({ resolver: blogPostResolver, defaultValues: defaults });
  const create = useCreateBlogPost();
  const update = useUpdateBlogPost();
  const [conflict, setConflict] = useState<string | null>(null);
  const pending = create.isPending || update.isPending;
  const title = editing ? 'Edit Post' : 'Create New Post';
  const heading = useRef<HTMLHeadingElement>(null);
  // The form takes the list's place: move focus (and the view) to its title.
  useEffect(() => heading.current?.focus(), []);

  const onError = (error: unknown) => {
    if (isConflict(error) && editing) {
      const text = postConflictText(error);
      setConflict(text);
      toast.error('Post not saved', { description: text });
      return;
    }
    if (isApiError(error) && error.fields) {
      const found = blogFieldErrors(error.fields);
      for (const field of BLOG_FORM_FIELDS) {
        const message = found[field];
        if (message) form.setError(field, { type: 'server', message });
      }
      if (found.root) form.setError('root.server', { type: 'server', message: found.root });
    }
    toast.error('Post not saved', { description: errorMessage(error, editing ? 'The post could not be updated. Please try again.' : 'The post could not be created. Please try again.') });
  };

  const submit = form.handleSubmit((values) => {
    setConflict(null);
    const input = toBlogPostInput(values);
    // Promise callbacks, not mutate's: the stored post's new version remounts this form first.
    if (editing) {
      void update.mutateAsync({ ...input, id: post.id, version: post.version }).then(() => {
        toast.success(BLOG_TOASTS.updated.title, { description: BLOG_TOASTS.updated.description });
        onDone();
      }, onError);
      return;
    }
    void create.mutateAsync(input).then(() => {
      toast.success(BLOG_TOASTS.created.title, { description: BLOG_TOASTS.created.description });
      onDone();
    }, onError);
  });

  return (
    <Card className="gap-4">
      <CardHeader>
        <h2 id="post-form-title" ref={heading} tabIndex={-1} className="text-lg leading-none font-semibold outline-none">
          {title}
        </h2>
        <CardDescription>Every field is needed except the slug and the body.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate aria-labelledby="post-form-title" onSubmit={(event) => void submit(event)} className="grid min-w-0 gap-4">
          {conflict !== null ? <ConflictAlert message={conflict} onReload={() => onReload?.()} reloading={reloading} /> : null}
          <TextField form={form} idPrefix="post" name="title" label="Title" />
          <TextField form={form} idPrefix="post" name="excerpt" label="Excerpt" multiline rows={3} />
          <div className="grid min-w-0 gap-4 sm:grid-cols-2">
            <TextField form={form} idPrefix="post" name="author" label="Author" />
            <SelectField form={form} idPrefix="post" name="category" label="Category" options={CATEGORY_OPTIONS} placeholder="Choose a category" />
            <TextField form={form} idPrefix="post" name="date" label="Date" placeholder="March 15, 2024" />
            <TextField form={form} idPrefix="post" name="readTime" label="Read time" placeholder="5 min read" />
          </div>
          <ImageField form={form} />
          <div className="grid min-w-0 gap-4 sm:grid-cols-2">
            <TextField form={form} idPrefix="post" name="slug" label="Slug" placeholder="my-post-title" description={SLUG_HINT} />
            <SelectField form={form} idPrefix="post" name="status" label="Status" options={STATUS_OPTIONS} description="Only published posts appear on the blog." />
          </div>
          <BodyField form={form} />
          {form.formState.errors.root?.server?.message ? <FieldError>{form.formState.errors.root.server.message}</FieldError> : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={onDone} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? (editing ? 'Updating...' : 'Creating...') : editing ? 'Update Post' : 'Create Post'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
