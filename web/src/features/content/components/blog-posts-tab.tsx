import { ExternalLink, Newspaper, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { BlogPostSummary } from '@common/api/content';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/session';
import { useBlogPosts } from '../api/find-blog-posts';
import { useBlogPost } from '../api/get-blog-post';
import { useDeleteBlogPost } from '../api/delete-blog-post';
import { postPath } from '../lib/blog-form';
import { BLOG_TOASTS } from '../lib/feedback';
import { BlogPostFormCard } from './blog-post-form';

export function PostStatusBadge({ status }: { status: BlogPostSummary['status'] }) {
  return status === 'published' ? <Badge variant="success">Published</Badge> : <Badge variant="secondary">Draft</Badge>;
}

/** One post in the list: title, status, category, author, date; its public link once published; Edit and Delete. */
export function BlogPostItem({ post, onEdit }: { post: BlogPostSummary; onEdit: () => void }) {
  const remove = useDeleteBlogPost();
  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-xl border bg-card p-4 sm:flex-row sm:items-start" data-testid="blog-post">
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h3 className="min-w-0 font-semibold break-words">{post.title}</h3>
          <PostStatusBadge status={post.status} />
        </div>
        <p className="text-xs text-muted-foreground">
          {post.category} · {post.author} · {post.date} · {post.readTime}
        </p>
        <p className="line-clamp-2 text-sm break-words text-muted-foreground">{post.excerpt}</p>
        {post.status === 'published' ? (
          <a href={postPath(post.slug)} target="_blank" rel="noreferrer" className="inline-flex w-fit max-w-full items-center gap-1 text-xs text-primary hover:underline">
            <ExternalLink aria-hidden className="size-3 shrink-0" />
            <span className="truncate">{postPath(post.slug)}</span>
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        ) : (
          <p className="text-xs break-all text-muted-foreground">{postPath(post.slug)} (not public while a draft)</p>
        )}
      </div>
      <div className="flex shrink-0 flex-wrap gap-1">
        <Button type="button" variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${post.title}`}>
          <Pencil aria-hidden />
          Edit
        </Button>
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button type="button" variant="ghost" size="sm" className="text-destructive hover:text-destructive" disabled={remove.isPending} aria-label={`Delete ${post.title}`}>
              <Trash2 aria-hidden />
              Delete
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Delete Post</AlertDialogTitle>
              <AlertDialogDescription>Are you sure you want to delete &quot;{post.title}&quot;? It is removed from the blog and cannot be restored.</AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction
                className={buttonVariants({ variant: 'destructive' })}
                onClick={() =>
                  // Promise callbacks: this item leaves the list (unmounts) before mutate's callbacks would run.
                  void remove.mutateAsync(post.id).then(
                    () => void toast.success(BLOG_TOASTS.deleted.title, { description: BLOG_TOASTS.deleted.description }),
                    (error: unknown) => void toast.error('Post not deleted', { description: errorMessage(error, 'The post could not be deleted. Please try again.') }),
                  )
                }
              >
                Delete
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </li>
  );
}

/** Edit: loads the newest version of the post, and again on Reload after a conflict. */
function EditPost({ id, author, onDone }: { id: number; author: string; onDone: () => void }) {
  const post = useBlogPost(id);
  const [reloading, setReloading] = useState(false);
  if (post.isPending) return <Skeleton className="h-96" />;
  if (post.isError) {
    return (
      <LoadError message={errorMessage(post.error, 'The post could not be loaded.')}>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={() => void post.refetch()}>
            Try Again
          </Button>
          <Button variant="ghost" size="sm" onClick={onDone}>
            Back to Posts
          </Button>
        </div>
      </LoadError>
    );
  }
  return (
    <BlogPostFormCard
      key={post.data.version}
      post={post.data}
      author={author}
      onDone={onDone}
      reloading={reloading}
      onReload={() => {
        setReloading(true);
        void post.refetch().finally(() => setReloading(false));
      }}
    />
  );
}

type Editing = { mode: 'list' } | { mode: 'new' } | { mode: 'edit'; id: number };

/** The Blog Posts tab: New Post, every post (drafts and published) with Edit and Delete, and the post form. */
export function BlogPostsTab() {
  const user = useCurrentUser();
  const posts = useBlogPosts();
  const [editing, setEditing] = useState<Editing>({ mode: 'list' });
  const back = () => setEditing({ mode: 'list' });

  if (editing.mode === 'new') return <BlogPostFormCard author={user.name} onDone={back} />;
  if (editing.mode === 'edit') return <EditPost id={editing.id} author={user.name} onDone={back} />;

  const list = posts.data ?? [];
  return (
    <div className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">Drafts and published posts, newest first. Only published posts appear on the blog.</p>
        <Button onClick={() => setEditing({ mode: 'new' })}>
          <Plus aria-hidden />
          New Post
        </Button>
      </div>
      {posts.isPending ? (
        <div className="grid gap-3">
          <Skeleton className="h-28" />
          <Skeleton className="h-28" />
        </div>
      ) : posts.isError ? (
        <LoadError message={errorMessage(posts.error, 'The blog posts could not be loaded.')} onRetry={() => void posts.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState icon={Newspaper} title="No blog posts yet">
          Write the first one with New Post.
        </EmptyState>
      ) : (
        <ul aria-label="Blog posts" className="grid min-w-0 gap-3">
          {list.map((post) => (
            <BlogPostItem key={post.id} post={post} onEdit={() => setEditing({ mode: 'edit', id: post.id })} />
          ))}
        </ul>
      )}
    </div>
  );
}
