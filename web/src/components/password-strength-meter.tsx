import { PASSWORD_STRENGTH_MAX, type PasswordStrength } from '@common/validation/password-strength';
import { cn } from '@/lib/cn';

const LABEL_STYLE: Record<PasswordStrength['label'], { bar: string; text: string }> = {
  Weak: { bar: 'bg-destructive', text: 'text-destructive' },
  Fair: { bar: 'bg-warning', text: 'text-warning' },
  Strong: { bar: 'bg-success', text: 'text-success' },
};

/** Width of the bar: the shared score over its maximum of 8 (common/validation/password-strength). */
export function strengthPercent(score: number): number {
  return Math.round((Math.min(Math.max(score, 0), PASSWORD_STRENGTH_MAX) / PASSWORD_STRENGTH_MAX) * 100);
}

/** The strength bar with its label and the live hints for the criteria not yet met. */
export function PasswordStrengthMeter({
  strength,
  showHints = true,
  id,
}: {
  strength: PasswordStrength;
  showHints?: boolean;
  id?: string;
}) {
  const style = LABEL_STYLE[strength.label];
  const percent = strengthPercent(strength.score);
  return (
    <div id={id} className="grid gap-1.5" data-testid="password-strength">
      <div className="flex items-center justify-between text-xs">
        <span className="text-muted-foreground">Password strength</span>
        <span className={cn('font-medium', style.text)}>{strength.label}</span>
      </div>
      <div
        className="h-1.5 w-full overflow-hidden rounded-full bg-muted"
        role="meter"
        aria-label="Password strength"
        aria-valuemin={0}
        aria-valuemax={PASSWORD_STRENGTH_MAX}
        aria-valuenow={strength.score}
        aria-valuetext={strength.label}
      >
        <div className={cn('h-full transition-all', style.bar, WIDTH_CLASS[strength.score] ?? 'w-0')} />
      </div>
      {showHints && strength.feedback.length > 0 ? (
        <ul className="grid gap-0.5 text-xs text-muted-foreground" aria-label="Password hints">
          {strength.feedback.map((hint) => (
            <li key={hint} className="before:mr-1.5 before:content-['•']">
              {hint}
            </li>
          ))}
        </ul>
      ) : null}
      <span className="sr-only">{`Strength ${percent}%`}</span>
    </div>
  );
}

// Static classes (no inline style) for each of the nine scores, 0/8 … 8/8.
const WIDTH_CLASS: readonly string[] = [
  'w-0',
  'w-1/8',
  'w-2/8',
  'w-3/8',
  'w-4/8',
  'w-5/8',
  'w-6/8',
  'w-7/8',
  'w-full',
];
