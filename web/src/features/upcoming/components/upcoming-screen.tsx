import { Clock } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { UPCOMING_FALLBACK, type UpcomingContent } from '../content';

/** A screen that is not built yet: its one sentence saying so (see ../content.ts). */
export function UpcomingScreen({ content }: { content: UpcomingContent | undefined }) {
  return <EmptyState icon={content?.icon ?? Clock} title={content?.notice ?? UPCOMING_FALLBACK} />;
}
