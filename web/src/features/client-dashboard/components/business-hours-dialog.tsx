import { useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { toast } from 'sonner';
import type { AutomationSettingsView } from '@common/api/client-dashboard';
import { BusinessHoursFields } from '@/components/business-hours-fields';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { errorMessage, isApiError } from '@/lib/api-client';
import { browserTimeZone } from '@/lib/business-hours';
import { useUpdateAgentSettings } from '../api/update-agent-settings';
import { hoursFormPath, hoursFormResolver, toHoursForm, type HoursBody, type HoursForm } from '../lib/hours-form';

/** Configure: the AI agent's business hours (several ranges a day), its time zone and what happens outside them. */
function HoursFormBody({ clientId, settings, onDone }: { clientId: string; settings: AutomationSettingsView; onDone: () => void }) {
  const update = useUpdateAgentSettings();
  const form = useForm<HoursForm, unknown, HoursBody>({ resolver: hoursFormResolver, defaultValues: toHoursForm(settings, browserTimeZone()) });
  const { control, register, handleSubmit, formState, setError } = form;
  const errors = formState.errors;

  const submit = handleSubmit((body) => {
    update.mutate(
      { clientId, businessHours: body.businessHours, outsideHours: body.outsideHours },
      {
        onSuccess: () => {
          toast.success('Settings Saved', { description: 'The business hours of the AI agent were updated.' });
          onDone();
        },
        onError: (error) => {
          if (isApiError(error) && error.fields) {
            for (const [path, message] of Object.entries(error.fields)) setError(hoursFormPath(path) as FieldPath<HoursForm>, { message });
          }
          toast.error('Error', { description: errorMessage(error, 'The business hours could not be saved. Please try again.') });
        },
      },
    );
  });

  return (
    <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
      <BusinessHoursFields idPrefix="hours" control={control} register={register} errors={errors} />

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}

export function BusinessHoursDialog({ clientId, settings }: { clientId: string; settings: AutomationSettingsView }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          Configure
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Business hours</DialogTitle>
          <DialogDescription>When the AI agent is open for your customers, and what it does outside those hours.</DialogDescription>
        </DialogHeader>
        {/* A new form each time it opens: it starts from what is stored. */}
        {open ? <HoursFormBody clientId={clientId} settings={settings} onDone={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
