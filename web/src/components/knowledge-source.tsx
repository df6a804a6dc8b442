import { BookOpen, FileQuestion } from 'lucide-react';
import { cn } from '@/lib/cn';

export interface KnowledgeSourceProps {
  source: { kind: 'faq' | 'article'; title: string; link?: string | null };
  /** 'truncate' keeps one line (lists); 'wrap' breaks long titles (a detail panel). */
  overflow?: 'truncate' | 'wrap';
}

/** A knowledge-base entry an answer came from: FAQ or article icon, its title, linked when it has a link. */
export function KnowledgeSource({ source, overflow = 'truncate' }: KnowledgeSourceProps) {
  const Icon = source.kind === 'faq' ? FileQuestion : BookOpen;
  const text = overflow === 'truncate' ? 'truncate' : 'min-w-0 break-words';
  return (
    <span className={cn('inline-flex min-w-0 gap-1.5', overflow === 'truncate' ? 'items-center' : 'items-start')}>
      <Icon aria-hidden className={cn('size-3.5 shrink-0 text-muted-foreground', overflow === 'wrap' && 'mt-0.5')} />
      <span className="sr-only">{source.kind === 'faq' ? 'FAQ entry:' : 'Article:'}</span>
      {source.link ? (
        <a href={source.link} target="_blank" rel="noreferrer noopener" className={cn(text, 'text-primary hover:underline')}>
          {source.title}
        </a>
      ) : (
        <span className={text}>{source.title}</span>
      )}
    </span>
  );
}
