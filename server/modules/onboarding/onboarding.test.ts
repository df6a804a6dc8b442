/**
 * Onboarding (issue 17 §1; docs/onboarding.md) on both engines, through the app's HTTP handler:
 * a request from /client-signup is stored with its confirmation e-mail and the administrators'
 * notifications, a signed-in visitor's carries their account, bad forms are refused field by field;
 * approval makes the client from the form, links the applicant's account (or invites the address),
 * applies the offer's mapped template (the client's automation) and sets up the agent with the
 * spec's hours, all at once — twice at the same moment makes one client; decline e-mails the
 * reason; every route checks its role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalOutcome, OnboardingRequestView } from '../../../common/api/onboarding';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { CSRF_COOKIE, CSRF_HEADER } from '../../http/csrf';
import { ManualClock } from '../../lib/clock';

let ipCounter = 0;
/** A fresh client address per request, so the per-IP limit only bites where a test means it to. */
const nextIp = () => `203.0.113.${(++ipCounter % 250) + 1}`;
let emailCounter = 0;
const uniqueEmail = (stem: string) => `${stem}-${++emailCounter}-${Math.random().toString(36).slice(2, 8)}@example.com`;

function form(overrides: Record<string, unknown> = {}) {
  return {
    offerId: 'whatsapp-business',
    businessName: `Lima Bikes ${++emailCounter}`,
    contactName: 'Ana Lima',
    email: uniqueEmail('ana'),
    phone: '+351 912 345 678',
    industry: 'retail',
    timeZone: 'Europe/Lisbon',
    ...overrides,
  };
}

describe.each(ENGINES)('onboarding requests (%s)', (engine) => {
  const clock = new ManualClock(new Date());
  let app: TestApp;
  let admin: { client: TestClient; userId: string; email: string };
  let otherAdmin: { client: TestClient; userId: string; email: string };
  let manager: { client: TestClient; userId: string; email: string };
  let clientUser: { client: TestClient; userId: string; email: string };
  let templateId: string;

  /** A visitor's POST (no session; the page's CSRF cookie and header), from `ip`. */
  const visitorPost = (url: string, body: unknown, ip = nextIp()) =>
    app.inject({
      method: 'POST',
      url,
      remoteAddress: ip,
      headers: { 'content-type': 'application/json', cookie: `${CSRF_COOKIE}=page-token`, [CSRF_HEADER]: 'page-token' },
      payload: JSON.stringify(body),
    });
  const submit = (body: unknown, ip?: string) => visitorPost('/api/v1/public/onboarding-requests', body, ip);

  const requestByEmail = (email: string) => app.database.db.selectFrom('onboardingRequests').selectAll().where('email', '=', email).executeTakeFirst();
  const emailsTo = (to: string, kind?: string) => {
    let query = app.database.db.selectFrom('emails').selectAll().where('toAddress', '=', to);
    if (kind) query = query.where('kind', '=', kind);
    return query.orderBy('createdAt').execute();
  };
  const userByEmail = (email: string) => app.services.users.findUserByEmail(email);
  const approve = (id: string, who: TestClient = admin.client) => who.post(`/api/v1/onboarding/requests/${id}/approve`);

  /** Submits a request and returns its id. */
  async function submitted(overrides: Record<string, unknown> = {}): Promise<{ id: string; email: string; businessName: string }> {
    const body = form(overrides);
    expect((await submit(body)).statusCode).toBe(201);
    const row = await requestByEmail(body.email);
    if (!row) throw new Error('request not stored');
    return { id: row.id, email: body.email, businessName: body.businessName };
  }

  beforeAll(async () => {
    app = await createTestApp(engine, { clock });
    admin = await signedInClient(app, 'admin', { name: 'Ada Admin' });
    otherAdmin = await signedInClient(app, 'admin', { name: 'Otto Admin' });
    manager = await signedInClient(app, 'manager');
    clientUser = await signedInClient(app, 'client');
    const template = await admin.client.post('/api/v1/templates', {
      name: 'WhatsApp starter',
      type: 'n8n',
      workflowConfig: { webhookUrl: 'https://n8n.example.com/webhook/whatsapp-starter' },
    });
    expect(template.statusCode).toBe(201);
    templateId = template.json<{ id: string }>().id;
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('stores a visitor’s request before answering, e-mails the applicant a confirmation and tells every administrator', async () => {
    const body = form();
    const response = await submit(body);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ ok: true });

    const stored = await requestByEmail(body.email);
    expect(stored).toMatchObject({
      offerId: 'whatsapp-business',
      businessName: body.businessName,
      contactName: 'Ana Lima',
      phone: '+351 912 345 678',
      industry: 'retail',
      timeZone: 'Europe/Lisbon',
      userId: null,
      status: 'pending',
      decidedAt: null,
    });

    const [confirmation] = await emailsTo(body.email, 'onboarding-received');
    expect(confirmation?.subject).toBe(`We received your request: WhatsApp Business AI for ${body.businessName}`);
    expect(confirmation?.textBody).toContain('We will contact you within 24 hours');
    // The link fills the sign-up form's Email field with the request's address.
    expect(confirmation?.textBody).toContain(`Create your account: http://localhost:3000/register?email=${encodeURIComponent(body.email)}`);

    const notified = await app.database.db.selectFrom('notifications').selectAll().where('title', '=', `New onboarding request: ${body.businessName}`).execute();
    expect(notified.map((n) => n.userId).sort()).toEqual([admin.userId, otherAdmin.userId].sort());
    expect(notified[0]).toMatchObject({ kind: 'onboarding.request', link: '/admin/clients?tab=requests', body: 'Ana Lima asked for WhatsApp Business AI (Retail).' });
    expect(await emailsTo(admin.email, 'onboarding-request')).toEqual(
      expect.arrayContaining([expect.objectContaining({ subject: `New onboarding request: ${body.businessName} (WhatsApp Business AI)` })]),
    );
    expect(await emailsTo(manager.email, 'onboarding-request')).toEqual([]);
    expect(await emailsTo(clientUser.email, 'onboarding-request')).toEqual([]);
  });

  it('links a signed-in visitor’s request to their account', async () => {
    const applicant = await signedInClient(app, 'client', { name: 'Signed Sam' });
    const body = form({ email: applicant.email });
    expect((await applicant.client.post('/api/v1/public/onboarding-requests', body)).statusCode).toBe(201);
    expect(await requestByEmail(applicant.email)).toMatchObject({ userId: applicant.userId });
    const [confirmation] = await emailsTo(applicant.email, 'onboarding-received');
    expect(confirmation?.textBody).toContain('linked to the Parley account you were signed in with');
  });

  it('refuses a bad form with every field’s message and stores nothing', async () => {
    const fieldsOf = async (body: unknown) => {
      const response = await submit(body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
      return response.json<{ error: { fields: Record<string, string> } }>().error.fields;
    };
    expect(await fieldsOf({})).toEqual({
      offerId: 'Choose one of the templates',
      businessName: 'Business name is required',
      contactName: 'Contact name is required',
      email: 'Email is required',
      phone: 'Phone is required',
      industry: 'Choose an industry',
    });
    const email = uniqueEmail('bad');
    expect(await fieldsOf(form({ email: 'not-an-address' }))).toEqual({ email: 'Please enter a valid email address' });
    expect(await fieldsOf(form({ email, offerId: 'telegram-bot' }))).toEqual({ offerId: 'Choose one of the templates' });
    expect(await fieldsOf(form({ email, industry: 'mining' }))).toEqual({ industry: 'Choose an industry' });
    expect(await fieldsOf(form({ email, phone: 'call me' }))).toEqual({ phone: 'Please enter a valid phone number' });
    expect(await fieldsOf(form({ email, businessName: '   ', contactName: '<script>x</script>' }))).toEqual({
      businessName: 'Business name is required',
      contactName: 'Scripts, frames and embedded objects are not allowed',
    });
    expect(await requestByEmail(email)).toBeUndefined();
  });

  it('answers a bot like anyone and stores nothing; limits each network to 5 requests an hour', async () => {
    const honeypot = form({ website: 'https://spam.example' });
    expect((await submit(honeypot)).statusCode).toBe(201);
    const tooFast = form({ shownAt: clock.now().getTime() - 1_000 });
    expect((await submit(tooFast)).statusCode).toBe(201);
    expect(await requestByEmail(honeypot.email)).toBeUndefined();
    expect(await requestByEmail(tooFast.email)).toBeUndefined();

    const ip = '198.18.0.7';
    for (let i = 0; i < 5; i += 1) expect((await submit(form(), ip)).statusCode).toBe(201);
    const refused = await submit(form(), ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toMatch(/^Too many requests from your network\. Please try again in \d+ minute\(s\)\.$/u);
  });

  it('approves in one step: the client from the form, the applicant’s account linked, the mapped template applied, the agent set up, the applicant e-mailed', async () => {
    const mapped = await admin.client.put('/api/v1/onboarding/offer-templates/whatsapp-business', { templateId });
    expect(mapped.statusCode).toBe(200);
    expect(mapped.json()).toEqual({ offerId: 'whatsapp-business', offerName: 'WhatsApp Business AI', template: { id: templateId, name: 'WhatsApp starter', status: 'draft' } });

    const applicant = await signedInClient(app, 'client', { name: 'Paula Applicant' });
    const body = form({ email: applicant.email, businessName: 'Paula’s Bakery', contactName: 'Paula Applicant', industry: 'restaurant' });
    expect((await applicant.client.post('/api/v1/public/onboarding-requests', body)).statusCode).toBe(201);
    const request = await requestByEmail(applicant.email);

    const response = await approve(request!.id);
    expect(response.statusCode).toBe(200);
    const outcome = response.json<ApprovalOutcome>();
    expect(outcome.account.outcome).toBe('linked');
    expect(outcome.templateApplied).toMatchObject({ id: templateId, name: 'WhatsApp starter' });
    expect(outcome.subscriptionStarted).toBe(true);
    expect(outcome.request).toMatchObject({ status: 'approved', accountOutcome: 'linked', template: { id: templateId, name: 'WhatsApp starter' }, decidedBy: { id: admin.userId } });
    const clientId = outcome.request.client!.id;
    // The subscription (the billing module): the offer's price, active since the approval, its first invoice issued.
    expect(await app.services.billing.subscriptionOf(clientId)).toMatchObject({ offerId: 'whatsapp-business', priceMinor: 49_900, currency: 'USD', priceText: '$499/month', pastDue: false });
    expect(await app.database.db.selectFrom('invoices').select(['clientId', 'offerId']).where('clientId', '=', clientId).execute()).toEqual([{ clientId, offerId: 'whatsapp-business' }]);

    const client = await app.database.db.selectFrom('clients').selectAll().where('id', '=', clientId).executeTakeFirstOrThrow();
    expect(client).toMatchObject({ companyName: 'Paula’s Bakery', contactPerson: 'Paula Applicant', email: applicant.email, phone: '+351 912 345 678', status: 'active' });
    expect(await userByEmail(applicant.email)).toMatchObject({ role: 'client', clientId });

    // The template's assignment and the automation it created for the client.
    const assignment = await app.database.db.selectFrom('templateClients').selectAll().where('clientId', '=', clientId).executeTakeFirstOrThrow();
    expect(assignment).toMatchObject({ templateId, automationId: outcome.templateApplied!.automationId });
    const automation = await app.database.db.selectFrom('automations').selectAll().where('id', '=', outcome.templateApplied!.automationId).executeTakeFirstOrThrow();
    expect(automation).toMatchObject({ clientId, name: 'WhatsApp starter', workflowUrl: 'https://n8n.example.com/webhook/whatsapp-starter' });

    // The agent: the spec's default hours in the applicant's time zone, the rest as before (off until switched on).
    const agent = await app.services.agents.getConfig(clientId);
    expect(agent.businessHours).toEqual({
      timezone: 'Europe/Lisbon',
      days: [
        { day: 1, open: '09:00', close: '18:00' },
        { day: 2, open: '09:00', close: '18:00' },
        { day: 3, open: '09:00', close: '18:00' },
        { day: 4, open: '09:00', close: '18:00' },
        { day: 5, open: '09:00', close: '18:00' },
        { day: 6, open: '10:00', close: '16:00' },
      ],
    });
    expect(agent).toMatchObject({ enabled: false, outsideHours: 'answer', name: 'AI Assistant' });

    const [approved] = await emailsTo(applicant.email, 'onboarding-approved');
    expect(approved?.subject).toBe('Paula’s Bakery is set up on Parley');
    expect(approved?.textBody).toContain('with the template “WhatsApp starter”');
    expect(approved?.textBody).toContain('Sign in: http://localhost:3000/login');

    // The applicant, still signed in, now sees their business (and only it).
    const theirs = await applicant.client.get('/api/v1/clients');
    expect(theirs.json<{ clients: { id: string }[] }>().clients.map((c) => c.id)).toEqual([clientId]);
    expect(await app.services.onboarding.offerOf(clientId)).toMatchObject({ offerId: 'whatsapp-business', offerName: 'WhatsApp Business AI', templateName: 'WhatsApp starter' });

    // Decided once.
    const again = await approve(request!.id, otherAdmin.client);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ message: 'This request was already approved.', details: { reason: 'already_decided' } });
    expect((await admin.client.post(`/api/v1/onboarding/requests/${request!.id}/decline`, { reason: 'Too late' })).statusCode).toBe(409);
  });

  it('invites a signed-out applicant without an account, applies no template when none is mapped and says so', async () => {
    expect((await admin.client.put('/api/v1/onboarding/offer-templates/instagram-dm', { templateId: null })).statusCode).toBe(200);
    const { id, email, businessName } = await submitted({ offerId: 'instagram-dm' });
    const response = await approve(id);
    expect(response.statusCode).toBe(200);
    const outcome = response.json<ApprovalOutcome>();
    expect(outcome.templateApplied).toBeNull();
    expect(outcome.request.template).toBeNull();
    expect(outcome.account).toEqual({ outcome: 'invited', message: `No account had ${email}: we e-mailed an invitation to create one (the link works for 7 days).` });
    const clientId = outcome.request.client!.id;
    expect(await app.database.db.selectFrom('templateClients').selectAll().where('clientId', '=', clientId).execute()).toEqual([]);

    const invitation = await app.database.db.selectFrom('clientInvitations').selectAll().where('clientId', '=', clientId).executeTakeFirstOrThrow();
    expect(invitation).toMatchObject({ email, onboardingRequestId: id, acceptedAt: null, revokedAt: null, invitedBy: admin.userId });
    const [mail] = await emailsTo(email, 'client-invitation');
    expect(mail?.subject).toBe(`${businessName} is set up on Parley: create your account`);
    const token = /\/invite\/([A-Za-z0-9_-]+)/u.exec(mail!.textBody)?.[1];
    expect(token).toBeDefined();

    // The link works: a new account of the business, signed in with the password it set.
    const accepted = await visitorPost(`/api/v1/public/invitations/${token}/accept`, { name: 'Ana Lima', password: 'Corr3ct!Horse#Battery', confirmPassword: 'Corr3ct!Horse#Battery' });
    expect(accepted.statusCode).toBe(200);
    expect(await userByEmail(email)).toMatchObject({ role: 'client', clientId, emailVerified: true, fullName: 'Ana Lima' });
    await app.client().signIn(email, 'Corr3ct!Horse#Battery');
  });

  it('links no account that may not join (a staff address) and tells the applicant they will be contacted', async () => {
    const { id } = await submitted({ email: manager.email });
    const outcome = (await approve(id)).json<ApprovalOutcome>();
    expect(outcome.account.outcome).toBe('not-linked');
    expect(outcome.account.message).toContain('belongs to a staff account (manager)');
    expect(await userByEmail(manager.email)).toMatchObject({ role: 'manager', clientId: null });
    const [mail] = await emailsTo(manager.email, 'onboarding-approved');
    expect(mail?.textBody).toContain('we will contact you to give you access');
  });

  it('declines with a required reason, e-mailed to the applicant, once', async () => {
    const { id, email } = await submitted();
    const missing = await admin.client.post(`/api/v1/onboarding/requests/${id}/decline`, { reason: '   ' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toEqual({ reason: 'A reason is required' });

    const declined = await admin.client.post(`/api/v1/onboarding/requests/${id}/decline`, { reason: 'We do not serve your region yet.' });
    expect(declined.statusCode).toBe(200);
    expect(declined.json<OnboardingRequestView>()).toMatchObject({ status: 'declined', declineReason: 'We do not serve your region yet.', client: null });
    const [mail] = await emailsTo(email, 'onboarding-declined');
    expect(mail?.textBody).toContain('We do not serve your region yet.');

    expect((await approve(id)).statusCode).toBe(409);
    expect((await admin.client.post(`/api/v1/onboarding/requests/${id}/decline`, { reason: 'Again' })).statusCode).toBe(409);
    expect(await app.database.db.selectFrom('clients').select('id').where('email', '=', email).execute()).toEqual([]);
    // In the security log once, with who declined it and why.
    const logged = await app.database.db.selectFrom('securityEvents').select(['type', 'userId', 'details']).where('type', 'like', 'onboarding.%').execute();
    expect(logged.filter((event) => (event.details as { requestId?: string }).requestId === id)).toEqual([
      { type: 'onboarding.declined', userId: admin.userId, details: expect.objectContaining({ requestId: id, applicant: email, reason: 'We do not serve your region yet.' }) },
    ]);
  });

  it('makes one client when two administrators approve at the same moment', async () => {
    const { id, email } = await submitted({ businessName: 'Twice Clicked Ltd' });
    const answers = await Promise.all([approve(id, admin.client), approve(id, otherAdmin.client)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await app.database.db.selectFrom('clients').select('id').where('email', '=', email).execute()).toHaveLength(1);
    // One approval in the security log: the refused one rolled back with everything else it did.
    const logged = await app.database.db.selectFrom('securityEvents').select(['type', 'details']).where('type', '=', 'onboarding.approved').execute();
    expect(logged.filter((event) => (event.details as { requestId?: string }).requestId === id)).toEqual([
      { type: 'onboarding.approved', details: expect.objectContaining({ requestId: id, applicant: email, account: 'invited', offer: expect.any(String) }) },
    ]);
    expect(await app.database.db.selectFrom('clientInvitations').select('id').where('email', '=', email).execute()).toHaveLength(1);
  });

  it('lists requests by status with their counts, and refuses an unknown template for an offer', async () => {
    const pending = await admin.client.get('/api/v1/onboarding/requests');
    expect(pending.statusCode).toBe(200);
    const list = pending.json<{ requests: OnboardingRequestView[]; counts: Record<string, number> }>();
    expect(list.requests.every((r) => r.status === 'pending')).toBe(true);
    expect(list.counts.pending).toBe(list.requests.length);
    const all = (await admin.client.get('/api/v1/onboarding/requests?status=all')).json<{ requests: OnboardingRequestView[]; counts: Record<string, number> }>();
    expect(all.requests).toHaveLength(all.counts.pending! + all.counts.approved! + all.counts.declined!);
    expect((await admin.client.get('/api/v1/onboarding/requests?status=maybe')).statusCode).toBe(400);

    const unknown = await admin.client.put('/api/v1/onboarding/offer-templates/facebook-leads', { templateId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields).toEqual({ templateId: 'Template not found' });
    expect((await admin.client.put('/api/v1/onboarding/offer-templates/telegram-bot', { templateId: null })).statusCode).toBe(400);
    const offers = (await admin.client.get('/api/v1/onboarding/offer-templates')).json<{ offers: { offerId: string; template: unknown }[] }>().offers;
    expect(offers.map((o) => o.offerId)).toEqual(['instagram-dm', 'facebook-leads', 'whatsapp-business']);
    expect(offers.find((o) => o.offerId === 'facebook-leads')?.template).toBeNull();
  });

  it('lets only administrators review requests and map templates', async () => {
    const { id } = await submitted();
    const routes: { method: 'GET' | 'POST' | 'PUT'; url: string; body?: unknown }[] = [
      { method: 'GET', url: '/api/v1/onboarding/requests' },
      { method: 'POST', url: `/api/v1/onboarding/requests/${id}/approve` },
      { method: 'POST', url: `/api/v1/onboarding/requests/${id}/decline`, body: { reason: 'No' } },
      { method: 'GET', url: '/api/v1/onboarding/offer-templates' },
      { method: 'PUT', url: '/api/v1/onboarding/offer-templates/facebook-leads', body: { templateId: null } },
    ];
    for (const route of routes) {
      expect((await app.client().request(route)).statusCode, `${route.method} ${route.url} anonymous`).toBe(401);
      expect((await clientUser.client.request(route)).statusCode, `${route.method} ${route.url} client`).toBe(403);
      expect((await manager.client.request(route)).statusCode, `${route.method} ${route.url} manager`).toBe(403);
    }
    // Nothing was decided by those calls.
    expect(await app.database.db.selectFrom('onboardingRequests').select('status').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'pending' });
    expect((await admin.client.get('/api/v1/onboarding/requests')).statusCode).toBe(200);
  });
});
