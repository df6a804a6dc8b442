import { Clock, Mail, MapPin, MessageSquare, Phone } from 'lucide-react';
import { WEEKDAYS, type ContactContent } from '@common/api/content';
import { CONTACT_MESSAGE_MAX } from '@common/api/contact';
import { PageHero } from './page-hero';

const DAY_LABELS: Record<(typeof WEEKDAYS)[number], string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

const input =
  'h-10 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive';
const label = 'text-sm font-medium';

function Field({ name, text, type = 'text', autoComplete, required = true }: { name: string; text: string; type?: string; autoComplete: string; required?: boolean }) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={`contact-${name}`} className={label}>
        {text}
        {required ? null : <span className="font-normal text-muted-foreground"> (optional)</span>}
      </label>
      <input
        id={`contact-${name}`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        required={required}
        maxLength={type === 'email' ? 254 : 100}
        aria-describedby={`contact-${name}-error`}
        className={input}
      />
      <p id={`contact-${name}-error`} data-error-for={name} className="text-sm text-destructive" hidden />
    </div>
  );
}

/**
 * Contact ('Get in Touch', spec part 2 "Public pages"): the message form, the contact cards and the
 * weekly hours, from the stored Contact content. The form is sent by the site script
 * (web/src/app/site/islands.ts, `data-island="contact-form"`): it needs no framework.
 */
export function ContactPage({ contact }: { contact: ContactContent }) {
  return (
    <>
      <PageHero title="Get in Touch">Questions, a demo, or help with your setup: we'll get back to you within 24 hours.</PageHero>
      <section className="mx-auto grid max-w-6xl gap-6 px-4 py-16 lg:grid-cols-[3fr_2fr]">
        <div className="rounded-xl border bg-card p-6">
          <MessageSquare aria-hidden className="size-6 text-primary" />
          <h2 className="mt-4 text-lg font-semibold">Send us a message</h2>
          <form data-island="contact-form" noValidate className="mt-4 grid gap-4" aria-describedby="contact-form-status">
            <div className="grid gap-4 sm:grid-cols-2">
              <Field name="firstName" text="First name" autoComplete="given-name" />
              <Field name="lastName" text="Last name" autoComplete="family-name" />
            </div>
            <Field name="email" text="Email" type="email" autoComplete="email" />
            <Field name="company" text="Company" autoComplete="organization" required={false} />
            <div className="grid gap-1.5">
              <label htmlFor="contact-message" className={label}>
                Message
              </label>
              <textarea
                id="contact-message"
                name="message"
                required
                rows={5}
                maxLength={CONTACT_MESSAGE_MAX}
                aria-describedby="contact-message-error"
                className="w-full rounded-md border border-input bg-transparent px-3 py-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive"
              />
              <p id="contact-message-error" data-error-for="message" className="text-sm text-destructive" hidden />
            </div>
            {/* Honeypot: people never see it; a bot that fills it is answered but not stored. */}
            <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
              <label htmlFor="contact-website">Website</label>
              <input id="contact-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
            </div>
            <button
              type="submit"
              className="inline-flex h-10 items-center justify-center rounded-md bg-primary px-5 text-sm font-medium text-primary-foreground shadow-xs transition-colors hover:bg-primary/90 disabled:opacity-60"
            >
              Send Message
            </button>
            <p id="contact-form-status" role="status" aria-live="polite" className="text-sm" />
          </form>
        </div>
        <div className="grid content-start gap-6">
          <ul className="grid gap-3 rounded-xl border bg-card p-6 text-sm" aria-label="Contact details">
            <li className="flex items-start gap-3">
              <Mail aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
              <a href={`mailto:${contact.email}`} className="break-all hover:underline">
                {contact.email}
              </a>
            </li>
            <li className="flex items-start gap-3">
              <Phone aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
              <a href={`tel:${contact.phone.replace(/[^\d+]/gu, '')}`} className="hover:underline">
                {contact.phone}
              </a>
            </li>
            <li className="flex items-start gap-3">
              <MapPin aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
              <span className="break-words">{contact.address}</span>
            </li>
          </ul>
          <div className="rounded-xl border bg-card p-6">
            <Clock aria-hidden className="size-6 text-primary" />
            <h2 className="mt-4 text-lg font-semibold">Business hours</h2>
            <dl className="mt-4 grid gap-2 text-sm">
              {WEEKDAYS.map((day) => (
                <div key={day} className="flex justify-between gap-4 border-b pb-2 last:border-0">
                  <dt className="text-muted-foreground">{DAY_LABELS[day]}</dt>
                  <dd className="text-right font-medium">{contact.hours[day]}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
      </section>
    </>
  );
}
