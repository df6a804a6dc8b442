import { zodResolver } from '@hookform/resolvers/zod';
import { CircleCheckBig, ListChecks } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { INDUSTRY_LABELS, ONBOARDING_SENT_TOAST, onboardingRequestInput } from '@common/api/onboarding';
import { findOffer, INDUSTRIES, ONBOARDING_NEXT_STEPS } from '@common/api/offers';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FieldError, fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { browserTimeZone } from '@/lib/time-zone';
import { useSubmitOnboardingRequest } from '../api/submit-onboarding-request';
import { OfferPicker } from './offer-picker';

type FormInput = z.input<typeof onboardingRequestInput>;
type FormOutput = z.output<typeof onboardingRequestInput>;
const FIELDS = ['offerId', 'businessName', 'contactName', 'email', 'phone', 'industry'] as const;

function NextSteps() {
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <ListChecks aria-hidden className="size-5 text-primary" />
          What happens next?
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-3 text-sm">
          {ONBOARDING_NEXT_STEPS.map((step, index) => (
            <li key={step} className="flex items-start gap-3">
              <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-primary/10 text-xs font-semibold text-primary">{index + 1}</span>
              <span className="pt-0.5">{step}</span>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

function Sent({ sent, signedIn }: { sent: FormOutput; signedIn: boolean }) {
  const offer = findOffer(sent.offerId);
  return (
    <Card className="gap-4" aria-live="polite">
      <CardContent className="grid justify-items-center gap-3 py-4 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-success/15">
          <CircleCheckBig aria-hidden className="size-6 text-success" />
        </span>
        <h2 className="text-xl font-semibold">{ONBOARDING_SENT_TOAST.title}</h2>
        <p className="max-w-prose text-sm text-muted-foreground">
          Thank you, {sent.contactName}. We received your request for {offer?.name ?? 'your template'} for {sent.businessName} and sent a confirmation to{' '}
          <span className="font-medium break-all text-foreground">{sent.email}</span>. We will contact you within 24 hours.
        </p>
        <p className="max-w-prose text-sm text-muted-foreground">
          {signedIn
            ? 'Your request is linked to the account you are signed in with: once it is approved, your dashboard shows your business.'
            : 'Once it is approved, we e-mail you how to open your dashboard. You can also create your account now with this e-mail address: the approval links it to your business.'}
        </p>
        <div className="flex flex-wrap justify-center gap-2">
          {signedIn ? (
            <Link to="/dashboard" className={buttonVariants()}>
              Go to Dashboard
            </Link>
          ) : (
            <Link to="/register" className={buttonVariants()}>
              Create Your Account
            </Link>
          )}
          <Link to="/" className={buttonVariants({ variant: 'outline' })}>
            Back to Home
          </Link>
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * `/client-signup`, 'Choose Your AI Automation' (spec part 2 "AI template onboarding"; issue 17 §1):
 * the three offers (one selectable), the Business Information form — submit disabled until a
 * template is chosen — and 'What happens next?'. Sending stores a request the administrators
 * review; a signed-in visitor's request carries their account.
 */
export function ClientSignup() {
  const session = useSession();
  const user = session.status === 'ready' ? session.user : null;
  const submit = useSubmitOnboardingRequest();
  const [sent, setSent] = useState<FormOutput | null>(null);
  // When the form was shown, for the server's minimum fill time; the browser's zone for the agent's hours.
  const [shownAt] = useState(() => Date.now());
  const [timeZone] = useState(browserTimeZone);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(onboardingRequestInput),
    mode: 'onTouched',
    defaultValues: { businessName: '', contactName: user?.name ?? '', email: user?.email ?? '', phone: '', website: '' },
  });
  const { errors } = form.formState;
  const offerId = useWatch({ control: form.control, name: 'offerId' });
  // The session may arrive after the first render: fill in the signed-in person's name and address once.
  useEffect(() => {
    if (!user) return;
    if (form.getValues('contactName') === '') form.setValue('contactName', user.name);
    if (form.getValues('email') === '') form.setValue('email', user.email);
  }, [user, form]);

  const onSubmit = form.handleSubmit((values) => {
    submit.mutate(
      { ...values, timeZone, shownAt },
      {
        onSuccess: () => {
          toast.success(ONBOARDING_SENT_TOAST.title, { description: ONBOARDING_SENT_TOAST.description });
          setSent(values);
          window.scrollTo({ top: 0, behavior: 'smooth' });
        },
        onError: (error) => {
          if (isApiError(error) && error.fields) {
            for (const field of FIELDS) {
              const message = error.fields[field];
              if (message) form.setError(field, { type: 'server', message });
            }
          }
          toast.error(isApiError(error) && error.code === 'RATE_LIMITED' ? 'Too Many Requests' : 'Request Failed', {
            description: errorMessage(error, 'Your request could not be sent. Please try again.'),
          });
        },
      },
    );
  });

  if (sent) {
    return (
      <section aria-label="Request sent" className="mx-auto grid max-w-3xl gap-6 px-4 py-12">
        <Sent sent={sent} signedIn={user !== null} />
        <NextSteps />
      </section>
    );
  }

  const field = (name: 'businessName' | 'contactName' | 'email' | 'phone', label: string, input: { type?: string; autoComplete: string; placeholder?: string }) => (
    <FormField id={`onboarding-${name}`} label={label} error={errors[name]?.message}>
      <Input {...fieldA11y(`onboarding-${name}`, errors[name]?.message)} aria-required="true" {...input} {...form.register(name)} />
    </FormField>
  );

  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12">
      <section aria-labelledby="offers-heading" className="grid gap-4">
        <h2 id="offers-heading" className="text-xl font-semibold">
          1. Choose your template
        </h2>
        <Controller
          control={form.control}
          name="offerId"
          render={({ field: offer }) => (
            <OfferPicker
              value={offer.value}
              onChange={(id) => offer.onChange(id)}
              invalid={errors.offerId !== undefined}
              describedBy={errors.offerId ? 'onboarding-offer-error' : undefined}
            />
          )}
        />
        {errors.offerId?.message ? <FieldError id="onboarding-offer-error">{errors.offerId.message}</FieldError> : null}
      </section>

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card className="gap-4">
          <CardHeader>
            <h2 className="text-xl leading-none font-semibold">2. Business Information</h2>
            <CardDescription>
              {user ? (
                <>
                  Signed in as <span className="break-all">{user.email}</span>: this request is linked to your account.
                </>
              ) : (
                'Tell us about your business. All fields are required.'
              )}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4 sm:grid-cols-2">
              {field('businessName', 'Business Name', { autoComplete: 'organization', placeholder: 'Lima Bikes' })}
              {field('contactName', 'Contact Name', { autoComplete: 'name', placeholder: 'Ana Lima' })}
              {field('email', 'Email', { type: 'email', autoComplete: 'email', placeholder: 'you@business.com' })}
              {field('phone', 'Phone', { type: 'tel', autoComplete: 'tel', placeholder: '+1 555 010 0200' })}
              <FormField id="onboarding-industry" label="Industry" error={errors.industry?.message} className="sm:col-span-2">
                <Controller
                  control={form.control}
                  name="industry"
                  render={({ field: industry }) => (
                    <Select value={industry.value ?? ''} onValueChange={industry.onChange}>
                      <SelectTrigger
                        id="onboarding-industry"
                        className="w-full"
                        aria-invalid={errors.industry ? true : undefined}
                        aria-describedby={errors.industry ? 'onboarding-industry-error' : undefined}
                        onBlur={industry.onBlur}
                      >
                        <SelectValue placeholder="Select your industry" />
                      </SelectTrigger>
                      <SelectContent>
                        {INDUSTRIES.map((value) => (
                          <SelectItem key={value} value={value}>
                            {INDUSTRY_LABELS[value]}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  )}
                />
              </FormField>
              {/* A field people never see: bots fill it in (the server drops their requests). */}
              <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
                <label htmlFor="onboarding-website">Website</label>
                <input id="onboarding-website" type="text" tabIndex={-1} autoComplete="off" {...form.register('website')} />
              </div>
              <div className="grid gap-2 sm:col-span-2">
                <Button type="submit" size="lg" disabled={offerId === undefined || submit.isPending}>
                  {submit.isPending ? 'Sending...' : 'Get Started'}
                </Button>
                {offerId === undefined ? (
                  <p className="text-center text-xs text-muted-foreground">Choose a template above to continue.</p>
                ) : (
                  <p className="text-center text-xs text-muted-foreground">
                    Chosen: {findOffer(offerId)?.name}, {findOffer(offerId)?.priceText}.
                  </p>
                )}
              </div>
            </form>
          </CardContent>
        </Card>
        <NextSteps />
      </div>
    </div>
  );
}
