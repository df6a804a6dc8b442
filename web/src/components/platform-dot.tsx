import type { ChannelKind } from '@common/api/channels';
import { cn } from '@/lib/cn';
import { DOT_CLASS, DOT_LABEL, dotPlatform } from '@/lib/messaging-format';

/** The platform colour dot, named for screen readers. */
export function PlatformDot({ platform, className }: { platform: ChannelKind; className?: string }) {
  const dot = dotPlatform(platform);
  return (
    <span
      role="img"
      aria-label={DOT_LABEL[dot]}
      title={DOT_LABEL[dot]}
      data-platform={dot}
      className={cn('inline-block size-2.5 shrink-0 rounded-full', DOT_CLASS[dot], className)}
    />
  );
}
