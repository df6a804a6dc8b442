import { Check, CircleCheck } from 'lucide-react';
import { type KeyboardEvent, useRef } from 'react';
import { type OfferId, TEMPLATE_OFFERS } from '@common/api/offers';
import { cn } from '@/lib/cn';

const NEXT_KEYS = new Set(['ArrowRight', 'ArrowDown']);
const PREVIOUS_KEYS = new Set(['ArrowLeft', 'ArrowUp']);

/**
 * The three template offers as one radio group of cards (spec part 2 "AI template onboarding": one
 * selectable). Keyboard as a radio group: Tab reaches the chosen card (or the first), the arrow keys
 * move and choose, Space chooses.
 */
export function OfferPicker({
  value,
  onChange,
  invalid,
  describedBy,
}: {
  value: OfferId | undefined;
  onChange: (offerId: OfferId) => void;
  invalid?: boolean;
  describedBy?: string | undefined;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const focusable = Math.max(
    0,
    TEMPLATE_OFFERS.findIndex((offer) => offer.id === value),
  );

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    let next: number | undefined;
    if (NEXT_KEYS.has(event.key)) next = (index + 1) % TEMPLATE_OFFERS.length;
    else if (PREVIOUS_KEYS.has(event.key)) next = (index - 1 + TEMPLATE_OFFERS.length) % TEMPLATE_OFFERS.length;
    if (next === undefined) return;
    event.preventDefault();
    onChange(TEMPLATE_OFFERS[next]!.id);
    refs.current[next]?.focus();
  };

  return (
    <div
      role="radiogroup"
      aria-label="AI automation templates"
      aria-required="true"
      aria-invalid={invalid ? true : undefined}
      aria-describedby={describedBy}
      className="grid gap-4 md:grid-cols-3"
    >
      {TEMPLATE_OFFERS.map((offer, index) => {
        const checked = offer.id === value;
        return (
          <button
            key={offer.id}
            ref={(element) => {
              refs.current[index] = element;
            }}
            type="button"
            role="radio"
            aria-checked={checked}
            aria-label={`${offer.name}, ${offer.priceText}`}
            aria-describedby={`offer-${offer.id}-description`}
            tabIndex={index === focusable ? 0 : -1}
            onClick={() => onChange(offer.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={cn(
              'relative flex h-full flex-col rounded-xl border bg-card p-6 text-left shadow-xs transition-colors outline-none',
              'hover:border-primary/60 focus-visible:ring-[3px] focus-visible:ring-ring/50',
              checked ? 'border-primary ring-2 ring-primary/40' : 'border-border',
            )}
          >
            <span className="flex items-start justify-between gap-3">
              <span className="text-lg font-semibold">{offer.name}</span>
              <CircleCheck aria-hidden className={cn('size-5 shrink-0', checked ? 'text-primary' : 'text-muted-foreground/30')} />
            </span>
            <span id={`offer-${offer.id}-description`} className="mt-2 text-sm text-muted-foreground">
              {offer.description}
            </span>
            <span className="mt-4 grid gap-1.5 text-sm">
              {offer.features.map((feature) => (
                <span key={feature} className="flex items-center gap-2">
                  <Check aria-hidden className="size-4 shrink-0 text-primary" />
                  {feature}
                </span>
              ))}
            </span>
            <span className="mt-auto pt-6 text-xl font-semibold">{offer.priceText}</span>
          </button>
        );
      })}
    </div>
  );
}
