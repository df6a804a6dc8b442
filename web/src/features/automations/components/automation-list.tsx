import { Pause, Play, PlayCircle } from 'lucide-react';
import type { AutomationView } from '@common/api/automations';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { nextStatus } from '../lib/automations';
import { AutomationStatusBadge, AutomationStatusIcon } from './automation-status';

/** The toggle's words: Pause an active automation, Resume a paused one, Activate any other. */
export function toggleLabel(status: AutomationView['status']): 'Pause' | 'Resume' | 'Activate' {
  if (nextStatus(status) === 'paused') return 'Pause';
  return status === 'paused' ? 'Resume' : 'Activate';
}

export interface AutomationRowProps {
  automation: AutomationView;
  selected: boolean;
  onSelect: () => void;
  onRun: () => void;
  onToggle: () => void;
  running?: boolean;
  toggling?: boolean;
}

export function AutomationRow({ automation, selected, onSelect, onRun, onToggle, running = false, toggling = false }: AutomationRowProps) {
  const label = toggleLabel(automation.status);
  const inactive = automation.status === 'inactive';
  return (
    <li
      data-testid="automation-row"
      aria-current={selected ? 'true' : undefined}
      className={cn('grid gap-3 rounded-xl border bg-card p-4 transition-colors', selected ? 'border-primary ring-1 ring-primary' : 'hover:bg-accent/40')}
    >
      <button type="button" onClick={onSelect} className="grid min-w-0 gap-1 text-left focus-visible:outline-none" aria-label={`Open ${automation.name}`}>
        <span className="flex min-w-0 items-center gap-2">
          <AutomationStatusIcon status={automation.status} />
          <span className="min-w-0 flex-1 truncate font-semibold">{automation.name}</span>
          <AutomationStatusBadge status={automation.status} />
        </span>
        {automation.description ? <span className="line-clamp-2 text-sm break-words text-muted-foreground">{automation.description}</span> : null}
        <span className="text-xs text-muted-foreground">
          Updated <time dateTime={automation.updated_at}>{formatDate(automation.updated_at)}</time>
        </span>
      </button>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={onRun} disabled={inactive || running} aria-label={`Run ${automation.name}`} title={inactive ? 'Activate the automation to run it' : undefined}>
          <Play aria-hidden />
          {running ? 'Running...' : 'Run'}
        </Button>
        <Button size="sm" variant="outline" onClick={onToggle} disabled={toggling} aria-label={`${label} ${automation.name}`}>
          {label === 'Pause' ? <Pause aria-hidden /> : <PlayCircle aria-hidden />}
          {label}
        </Button>
      </div>
    </li>
  );
}
