import { ArrowDown, ArrowUp, Eye, EyeOff, Plus, Save, Trash2, Undo2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { HERO_STATS_MAX, saveHeroStatsInput, type HeroStat } from '@common/api/content';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FieldError, fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useHeroStats } from '../api/find-hero-stats';
import { useReorderHeroStat } from '../api/reorder-hero-stat';
import { useSaveHeroStats } from '../api/save-hero-stats';
import { useToggleHeroStat } from '../api/toggle-hero-stat';
import { HERO_STAT_TOASTS } from '../lib/feedback';
import { canAdd, canRemove, movedPosition, rowsDiffer, rowsOf, statFieldErrors, toSaveBody, toggledToast, type StatRow } from '../lib/hero-stats';

type StatErrors = ReturnType<typeof statFieldErrors>;

/** The client-side check of a save, in the server's shape (`stats.2.label`). */
function validate(rows: readonly StatRow[]): StatErrors | null {
  const result = saveHeroStatsInput.safeParse({ stats: toSaveBody(rows) });
  if (result.success) return null;
  return statFieldErrors(Object.fromEntries(result.error.issues.map((issue) => [issue.path.map(String).join('.'), issue.message])));
}

/**
 * The hero stats card (spec part 1 §3, §7): edit numbers and labels, add and remove, then Save
 * ('Stats Updated'); show/hide and move act at once ('Stat Hidden' / 'Stat Shown', 'Stats Reordered'),
 * so they wait until edits are saved or undone.
 */
export function HeroStatsCard() {
  const stats = useHeroStats();
  if (stats.isPending) return <Skeleton className="h-72" />;
  if (stats.isError) {
    return <LoadError message={errorMessage(stats.error, 'The hero stats could not be loaded.')} onRetry={() => void stats.refetch()} />;
  }
  return <HeroStatsEditor stats={stats.data} />;
}

export function HeroStatsEditor({ stats }: { stats: HeroStat[] }) {
  const [rows, setRows] = useState<StatRow[]>(() => rowsOf(stats));
  const [source, setSource] = useState(stats);
  const [errors, setErrors] = useState<StatErrors>({ rows: {} });
  const save = useSaveHeroStats();
  const toggle = useToggleHeroStat();
  const reorder = useReorderHeroStat();
  const added = useRef(0);
  // The stored list changed (a save, toggle or move answered): show it, unless edits are in progress.
  if (source !== stats) {
    setSource(stats);
    if (!rowsDiffer(rows, source)) setRows(rowsOf(stats));
  }
  const dirty = rowsDiffer(rows, stats);
  const busy = save.isPending || toggle.isPending || reorder.isPending;

  const edit = (key: string, change: Partial<Pick<StatRow, 'number' | 'label'>>) => setRows((list) => list.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const submit = () => {
    const found = validate(rows);
    if (found) {
      setErrors(found);
      return;
    }
    setErrors({ rows: {} });
    save.mutate(toSaveBody(rows), {
      onSuccess: (saved) => {
        setRows(rowsOf(saved));
        toast.success(HERO_STAT_TOASTS.updated);
      },
      onError: (error) => {
        if (isApiError(error) && error.fields) setErrors(statFieldErrors(error.fields));
        toast.error('Stats not saved', { description: errorMessage(error, 'The stats could not be saved. Please try again.') });
      },
    });
  };

  const move = (row: StatRow, index: number, direction: -1 | 1) => {
    const newPosition = movedPosition(index, direction, rows.length);
    if (newPosition === null || !row.id) return;
    reorder.mutate(
      { id: row.id, newPosition },
      {
        onSuccess: (saved) => {
          setRows(rowsOf(saved));
          toast.success(HERO_STAT_TOASTS.reordered);
        },
        onError: (error) => void toast.error('Not moved', { description: errorMessage(error, 'The stat could not be moved. Please try again.') }),
      },
    );
  };

  const flip = (row: StatRow) => {
    if (!row.id) return;
    toggle.mutate(
      { id: row.id, isActive: !row.isActive },
      {
        onSuccess: (saved) => {
          setRows(rowsOf(saved));
          toast.success(toggledToast(!row.isActive));
        },
        onError: (error) => void toast.error('Not changed', { description: errorMessage(error, 'The stat could not be changed. Please try again.') }),
      },
    );
  };

  return (
    <section aria-labelledby="hero-stats-title" className="min-w-0">
      <Card className="gap-4">
        <CardHeader>
          <h2 id="hero-stats-title" className="text-lg leading-none font-semibold">
            Hero stats
          </h2>
          <CardDescription>
            The figures shown in the landing page&apos;s hero, in this order; hidden ones are not shown. Up to {HERO_STATS_MAX}.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid min-w-0 gap-4">
          {dirty ? (
            <p role="status" className="text-sm text-muted-foreground">
              Unsaved changes. Save or undo them to show, hide or move stats.
            </p>
          ) : null}
          <ol aria-label="Hero stats" className="grid min-w-0 gap-3">
            {rows.map((row, index) => {
              const rowErrors = errors.rows[index];
              const numberId = `hero-stat-${row.key}-number`;
              const labelId = `hero-stat-${row.key}-label`;
              const name = row.label.trim() === '' ? `stat ${index + 1}` : row.label;
              return (
                <li key={row.key} className="grid min-w-0 gap-3 rounded-lg border p-3" data-testid="hero-stat">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <span className="text-sm font-semibold">Stat {index + 1}</span>
                    <span className="flex flex-wrap items-center gap-2">
                      {row.id ? null : <Badge variant="outline">New</Badge>}
                      {row.isActive ? <Badge variant="success">Shown</Badge> : <Badge variant="secondary">Hidden</Badge>}
                    </span>
                  </div>
                  <div className="grid min-w-0 gap-3 sm:grid-cols-[10rem_1fr]">
                    <FormField id={numberId} label="Number" error={rowErrors?.number}>
                      <Input {...fieldA11y(numberId, rowErrors?.number)} autoComplete="off" value={row.number} onChange={(e) => edit(row.key, { number: e.target.value })} />
                    </FormField>
                    <FormField id={labelId} label="Label" error={rowErrors?.label}>
                      <Input {...fieldA11y(labelId, rowErrors?.label)} autoComplete="off" value={row.label} onChange={(e) => edit(row.key, { label: e.target.value })} />
                    </FormField>
                  </div>
                  <div className="flex flex-wrap gap-1">
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      disabled={dirty || busy || !row.id}
                      onClick={() => flip(row)}
                      aria-label={row.isActive ? `Hide ${name}` : `Show ${name}`}
                    >
                      {row.isActive ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
                      {row.isActive ? 'Hide' : 'Show'}
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      disabled={dirty || busy || index === 0}
                      onClick={() => move(row, index, -1)}
                      aria-label={`Move ${name} up`}
                    >
                      <ArrowUp aria-hidden />
                      Up
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      disabled={dirty || busy || index === rows.length - 1}
                      onClick={() => move(row, index, 1)}
                      aria-label={`Move ${name} down`}
                    >
                      <ArrowDown aria-hidden />
                      Down
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      className="text-destructive hover:text-destructive"
                      disabled={busy || !canRemove(rows)}
                      onClick={() => setRows((list) => list.filter((r) => r.key !== row.key))}
                      aria-label={`Remove ${name}`}
                    >
                      <Trash2 aria-hidden />
                      Remove
                    </Button>
                  </div>
                </li>
              );
            })}
          </ol>
          {errors.list ? <FieldError>{errors.list}</FieldError> : null}
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant="outline"
              disabled={busy || !canAdd(rows)}
              onClick={() => {
                added.current += 1;
                const key = `new-${added.current}`;
                setRows((list) => [...list, { key, number: '', label: '', isActive: true }]);
              }}
            >
              <Plus aria-hidden />
              Add Stat
            </Button>
            <Button type="button" disabled={busy || !dirty} onClick={submit}>
              <Save aria-hidden />
              {save.isPending ? 'Saving...' : 'Save Stats'}
            </Button>
            {dirty ? (
              <Button
                type="button"
                variant="ghost"
                disabled={busy}
                onClick={() => {
                  setRows(rowsOf(stats));
                  setErrors({ rows: {} });
                }}
              >
                <Undo2 aria-hidden />
                Undo Changes
              </Button>
            ) : null}
          </div>
        </CardContent>
      </Card>
    </section>
  );
}
