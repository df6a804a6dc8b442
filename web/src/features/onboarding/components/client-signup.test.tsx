import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ONBOARDING_NEXT_STEPS, TEMPLATE_OFFERS } from '@common/api/offers';
import { ClientSignup } from './client-signup';
import { OfferPicker } from './offer-picker';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&#x27;/gu, "'")
    .replace(/\s+/gu, ' ')
    .trim();

const radios = (html: string) => [...html.matchAll(/<button[^>]*role="radio"[^>]*>/gu)].map((m) => m[0]);

describe('/client-signup', () => {
  it("shows the spec's three offers as one radio group, the form and 'What happens next?', with Get Started disabled until a template is chosen", () => {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <ClientSignup />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const text = textOf(html);
    expect(html).toContain('role="radiogroup"');
    const options = radios(html);
    expect(options).toHaveLength(3);
    expect(options.every((tag) => tag.includes('aria-checked="false"'))).toBe(true);
    // Tab reaches the group once: on the first card while none is chosen.
    expect(options.map((tag) => /tabindex="(-?\d)"/u.exec(tag)?.[1])).toEqual(['0', '-1', '-1']);
    for (const offer of TEMPLATE_OFFERS) {
      expect(text).toContain(offer.name);
      expect(text).toContain(offer.priceText);
      for (const feature of offer.features) expect(text).toContain(feature);
    }
    for (const label of ['Business Name', 'Contact Name', 'Email', 'Phone', 'Industry']) expect(text).toContain(label);
    expect(text).toContain('What happens next?');
    for (const step of ONBOARDING_NEXT_STEPS) expect(text).toContain(step);
    const submit = /<button[^>]*type="submit"[^>]*>/u.exec(html)?.[0] ?? '';
    expect(submit).toContain('disabled');
    expect(text).toContain('Choose a template above to continue.');
  });

  it('marks the chosen offer checked and makes it the one Tab reaches', () => {
    const html = renderToStaticMarkup(<OfferPicker value="facebook-leads" onChange={() => undefined} />);
    const options = radios(html);
    expect(options.map((tag) => tag.includes('aria-checked="true"'))).toEqual([false, true, false]);
    expect(options.map((tag) => /tabindex="(-?\d)"/u.exec(tag)?.[1])).toEqual(['-1', '0', '-1']);
    expect(options[1]).toContain('aria-label="Facebook Lead AI, $399/month"');
  });
});
