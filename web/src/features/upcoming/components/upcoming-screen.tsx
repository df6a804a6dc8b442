import { Clock } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import type { UpcomingContent } from '../content';

export function UpcomingScreen({ content }: { content: UpcomingContent | undefined }) {
  if (!content) {
    return <EmptyState icon={Clock} title="Nothing here yet" />;
  }
  return (
    <EmptyState icon={content.icon} title={content.heading}>
      <p>{content.body}</p>
      <div className="mt-4 text-left">
        <p className="font-medium text-foreground">What will appear here</p>
        <ul className="mt-2 grid gap-1">
          {content.items.map((item) => (
            <li key={item} className="before:mr-2 before:content-['•']">
              {item}
            </li>
          ))}
        </ul>
      </div>
    </EmptyState>
  );
}
