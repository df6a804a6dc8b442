import { UserMinus, UserPlus, Users } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { WORKFLOW_TEXTS } from '@common/api/workflows';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorMessage } from '@/lib/api-client';
import { useClientList } from '@/lib/api/clients';
import { formatDate } from '@/lib/format';

export interface AssignedClientRow {
  id: string;
  name: string;
  assignedAt: string;
}

export interface ClientOption {
  id: string;
  name: string;
}

/**
 * Which clients may be picked: workflows and zaps offer only those not assigned yet ('All clients
 * are already assigned to this workflow/zap' when none is left); templates offer every client and
 * refuse an assigned one with 'Client Already Assigned' (spec part 2 §5).
 */
export type PickerMode = 'unassigned-only' | 'all';

export function pickableClients(clients: readonly ClientOption[], assigned: readonly AssignedClientRow[], mode: PickerMode): ClientOption[] {
  if (mode === 'all') return [...clients];
  const taken = new Set(assigned.map((a) => a.id));
  return clients.filter((client) => !taken.has(client.id));
}

/** What the picker says instead of offering clients, if anything. */
export function pickerNotice(clientCount: number, pickable: number): string | null {
  if (clientCount === 0) return 'No clients yet. Add one under Clients first.';
  if (pickable === 0) return WORKFLOW_TEXTS.allClientsAssigned;
  return null;
}

/** The assigned clients (oldest first, as the server answers) with their Remove buttons. */
export function AssignedClientList({ assigned, pending, onRemove }: { assigned: readonly AssignedClientRow[]; pending: boolean; onRemove: (client: AssignedClientRow) => void }) {
  if (assigned.length === 0) return <p className="rounded-md border border-dashed p-4 text-center text-sm text-muted-foreground">{WORKFLOW_TEXTS.noClients}</p>;
  return (
    <ul aria-label="Assigned clients" className="grid grid-cols-1 gap-2">
      {assigned.map((client) => (
        <li key={client.id} className="flex items-center justify-between gap-2 rounded-md border px-3 py-2">
          <div className="min-w-0">
            <p className="truncate text-sm font-medium">{client.name}</p>
            <p className="text-xs text-muted-foreground">Assigned {formatDate(client.assignedAt)}</p>
          </div>
          <Button variant="ghost" size="sm" disabled={pending} onClick={() => onRemove(client)} aria-label={`Remove ${client.name}`}>
            <UserMinus aria-hidden />
            Remove
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** "Clients (n)": a dialog listing the assigned clients with a picker to assign one more. */
export function ClientAssignmentDialog({
  itemName,
  assigned,
  mode,
  note,
  pending,
  onAssign,
  onRemove,
}: {
  itemName: string;
  assigned: readonly AssignedClientRow[];
  mode: PickerMode;
  note?: ReactNode;
  pending: boolean;
  onAssign: (client: ClientOption, done: () => void) => void;
  onRemove: (client: AssignedClientRow) => void;
}) {
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState('');
  const clients = useClientList({ enabled: open });
  const options = pickableClients((clients.data ?? []).map((c) => ({ id: c.id, name: c.companyName })), assigned, mode);
  const chosen = options.find((c) => c.id === choice);
  const pickerId = useId();

  const notice = clients.data ? pickerNotice(clients.data.length, options.length) : null;
  let picker: ReactNode;
  if (clients.isPending) picker = <p className="text-sm text-muted-foreground">Loading clients...</p>;
  else if (clients.isError) picker = <p className="text-sm text-destructive">{errorMessage(clients.error, 'The clients could not be loaded.')}</p>;
  else if (notice !== null) picker = <p className="text-sm text-muted-foreground">{notice}</p>;
  else
    picker = (
      <div className="flex flex-col gap-2 sm:flex-row">
        <Select value={chosen ? choice : ''} onValueChange={setChoice}>
          <SelectTrigger id={pickerId} className="w-full min-w-0 sm:flex-1" aria-label="Client to assign">
            <SelectValue placeholder="Choose a client" />
          </SelectTrigger>
          <SelectContent>
            {options.map((client) => (
              <SelectItem key={client.id} value={client.id}>
                {client.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Button disabled={!chosen || pending} onClick={() => chosen && onAssign(chosen, () => setChoice(''))}>
          <UserPlus aria-hidden />
          Assign
        </Button>
      </div>
    );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setChoice('');
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <Users aria-hidden />
          Clients ({assigned.length})<span className="sr-only"> of {itemName}</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="grid-cols-1">
        <DialogHeader>
          <DialogTitle>Clients of {itemName}</DialogTitle>
          <DialogDescription>{note ?? 'The client businesses this is assigned to.'}</DialogDescription>
        </DialogHeader>
        <div className="grid grid-cols-1 gap-2">
          <Label htmlFor={pickerId}>Assign a client</Label>
          {picker}
        </div>
        <AssignedClientList assigned={assigned} pending={pending} onRemove={onRemove} />
      </DialogContent>
    </Dialog>
  );
}
