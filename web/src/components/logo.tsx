import { MessageSquareText } from 'lucide-react';
import { Link } from 'react-router';

/** The Parley word mark, linking home. Plain classes: it is on the landing page's bundle. */
export function Logo() {
  return (
    <Link to="/" reloadDocument className="inline-flex items-center gap-2 text-lg font-semibold tracking-tight" aria-label="Parley home">
      <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
        <MessageSquareText aria-hidden className="size-4.5" />
      </span>
      Parley
    </Link>
  );
}
