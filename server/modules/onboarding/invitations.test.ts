/**
 * Invitations to a client business (issue 17 §3; docs/onboarding.md, "Invitations") on both
 * engines, through the app's HTTP handler and the app's clock: a link works once and for 7 days,
 * resending replaces it (the old one stops working), revoking ends it; the link sets a password for
 * a verified client account of the business, or makes the address's existing plain account join;
 * only the token's sha256 is stored; addresses that may not join are refused; only administrators
 * manage invitations; each step is in the security log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvitationSent, InvitationView, PublicInvitationView } from '../../../common/api/onboarding';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { CSRF_COOKIE, CSRF_HEADER } from '../../http/csrf';
import { ManualClock } from '../../lib/clock';
import { sha256Hex } from '../../lib/crypto';

const DAY = 24 * 60 * 60_000;
const PASSWORD = 'Corr3ct!Horse#Battery';
let counter = 0;
const uniqueEmail = (stem: string) => `${stem}-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;

describe.each(ENGINES)('client invitations (%s)', (engine) => {
  const clock = new ManualClock(new Date());
  let app: TestApp;
  let admin: { client: TestClient; userId: string; email: string };
  let manager: { client: TestClient; userId: string; email: string };
  let clientUser: { client: TestClient; userId: string; email: string };
  let clientId: string;

  const visitor = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), cookie: `${CSRF_COOKIE}=page-token`, [CSRF_HEADER]: 'page-token' },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const view = (token: string) => visitor('GET', `/api/v1/public/invitations/${token}`);
  const accept = (token: string, body: unknown = { name: 'Nina Newcomer', password: PASSWORD, confirmPassword: PASSWORD }) =>
    visitor('POST', `/api/v1/public/invitations/${token}/accept`, body);
  const join = (token: string) => visitor('POST', `/api/v1/public/invitations/${token}/join`);
  const invite = (email: string, to = clientId) => admin.client.post(`/api/v1/clients/${to}/invitations`, { email });

  /** The token of the latest invitation e-mail to `email` (it is only in the e-mail). */
  async function latestToken(email: string): Promise<string> {
    const mails = await app.database.db.selectFrom('emails').select(['textBody']).where('toAddress', '=', email).where('kind', '=', 'client-invitation').orderBy('createdAt', 'desc').execute();
    const token = /\/invite\/([A-Za-z0-9_-]+)/u.exec(mails[0]?.textBody ?? '')?.[1];
    if (!token) throw new Error(`no invitation e-mail to ${email}`);
    return token;
  }

  async function invited(email = uniqueEmail('nina')): Promise<{ email: string; token: string; invitation: InvitationView }> {
    const response = await invite(email);
    expect(response.statusCode).toBe(201);
    const sent = response.json<InvitationSent>();
    expect(sent.outcome).toBe('invited');
    return { email, token: await latestToken(email), invitation: sent.invitation };
  }

  beforeAll(async () => {
    app = await createTestApp(engine, { clock });
    admin = await signedInClient(app, 'admin', { name: 'Ada Admin' });
    manager = await signedInClient(app, 'manager');
    clientUser = await signedInClient(app, 'client');
    const created = await admin.client.post('/api/v1/clients', { companyName: 'Harbour Cafe', email: 'owner@harbour.example' });
    expect(created.statusCode).toBe(201);
    clientId = created.json<{ id: string }>().id;
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('e-mails a single-use link that makes a verified client account of the business; only the token’s hash is stored', async () => {
    const { email, token, invitation } = await invited();
    expect(invitation).toMatchObject({ clientId, email, status: 'pending', invitedBy: { id: admin.userId, name: 'Ada Admin' }, acceptedAt: null });
    expect(new Date(invitation.expiresAt).getTime() - new Date(invitation.sentAt).getTime()).toBe(7 * DAY);
    const [mail] = await app.database.db.selectFrom('emails').selectAll().where('toAddress', '=', email).execute();
    expect(mail?.subject).toBe('You are invited to Harbour Cafe on Parley');
    expect(mail?.textBody).toContain('Ada Admin invited you to Harbour Cafe');

    const row = await app.database.db.selectFrom('clientInvitations').selectAll().where('id', '=', invitation.id).executeTakeFirstOrThrow();
    expect(row.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);

    expect((await view(token)).json<PublicInvitationView>()).toEqual({ status: 'pending', clientName: 'Harbour Cafe', email, expiresAt: invitation.expiresAt, account: 'new' });
    const accepted = await accept(token);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({
      outcome: 'created',
      email,
      clientName: 'Harbour Cafe',
      message: `Your account is ready. Sign in with ${email} and your new password to open Harbour Cafe.`,
    });
    const user = await app.services.users.findUserByEmail(email);
    expect(user).toMatchObject({ role: 'client', clientId, emailVerified: true, fullName: 'Nina Newcomer' });
    await app.client().signIn(email, PASSWORD);

    // Used once: the link now says so, and cannot make a second account.
    const again = await accept(token);
    expect(again.statusCode).toBe(410);
    expect(again.json().error).toMatchObject({ code: 'GONE', message: 'This invitation was already used. Sign in with the account it created.', details: { reason: 'accepted' } });
    expect((await view(token)).json()).toEqual({ status: 'accepted', message: 'This invitation was already used. Sign in with the account it created.' });
    const listed = (await admin.client.get(`/api/v1/clients/${clientId}/invitations`)).json<{ invitations: InvitationView[] }>().invitations;
    expect(listed.find((i) => i.id === invitation.id)).toMatchObject({ status: 'accepted', acceptedBy: { id: user!.id, name: 'Nina Newcomer' } });
  });

  it('refuses a new account with the sign-up rules’ messages, and an unknown link plainly', async () => {
    const { token } = await invited();
    const weak = await accept(token, { name: 'Nina', password: 'short', confirmPassword: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields).toMatchObject({ password: 'Password must be at least 8 characters' });
    const mismatch = await accept(token, { name: 'Nina', password: PASSWORD, confirmPassword: `${PASSWORD}x` });
    expect(mismatch.json().error.fields).toEqual({ confirmPassword: 'Passwords do not match' });
    expect((await view(token)).json().status).toBe('pending');

    const unknown = await view('no-such-invitation-token');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('This invitation link is not valid. Check that you copied the whole link.');
    expect((await accept('no-such-invitation-token')).statusCode).toBe(404);
  });

  it('expires after 7 days; resending gives a new link and the old one stops working', async () => {
    const { email, token, invitation } = await invited();
    // The app's clock moves on (later tests only compare times relative to it).
    clock.advance(7 * DAY + 1_000);
    expect((await view(token)).json()).toEqual({ status: 'expired', message: 'This invitation has expired. Ask the person who invited you to send a new one.' });
    const late = await accept(token);
    expect(late.statusCode).toBe(410);
    expect(late.json().error.details).toEqual({ reason: 'expired' });
    expect(await app.services.users.findUserByEmail(email)).toBeUndefined();

    const resent = await admin.client.post(`/api/v1/invitations/${invitation.id}/resend`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json<InvitationView>()).toMatchObject({ id: invitation.id, status: 'pending', sentAt: clock.now().toISOString() });
    const fresh = await latestToken(email);
    expect(fresh).not.toBe(token);
    expect((await view(token)).statusCode).toBe(404);
    expect((await accept(token)).statusCode).toBe(404);
    expect((await accept(fresh)).statusCode).toBe(200);
  });

  it('resending a pending invitation invalidates its old link at once', async () => {
    const { email, token, invitation } = await invited();
    expect((await admin.client.post(`/api/v1/invitations/${invitation.id}/resend`)).statusCode).toBe(200);
    const fresh = await latestToken(email);
    expect((await view(token)).statusCode).toBe(404);
    expect((await view(fresh)).json().status).toBe('pending');
    // Inviting the same address again renews the same invitation (no second open one).
    expect((await invite(email)).json<InvitationSent>().invitation.id).toBe(invitation.id);
    expect((await view(fresh)).statusCode).toBe(404);
  });

  it('revokes: the link says it was withdrawn and cannot be used; a revoked invitation is not resent', async () => {
    const { token, invitation } = await invited();
    const revoked = await admin.client.post(`/api/v1/invitations/${invitation.id}/revoke`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json<InvitationView>()).toMatchObject({ status: 'revoked' });
    expect((await view(token)).json()).toEqual({ status: 'revoked', message: 'This invitation was withdrawn. Ask the person who invited you if you still need access.' });
    expect((await accept(token)).json().error.details).toEqual({ reason: 'revoked' });
    expect((await join(token)).statusCode).toBe(410);
    expect((await admin.client.post(`/api/v1/invitations/${invitation.id}/revoke`)).statusCode).toBe(200);
    expect((await admin.client.post(`/api/v1/invitations/${invitation.id}/resend`)).statusCode).toBe(409);
  });

  it('links the address’s plain account at once instead of inviting it, and refuses addresses that may not join', async () => {
    const plain = await signedInClient(app, 'client', { name: 'Pat Plain' });
    const linked = await invite(plain.email);
    expect(linked.statusCode).toBe(201);
    expect(linked.json<InvitationSent>()).toMatchObject({ outcome: 'linked', invitation: { status: 'accepted', acceptedBy: { id: plain.userId } } });
    expect(await app.services.users.findUserByEmail(plain.email)).toMatchObject({ clientId, role: 'client' });
    const [mail] = await app.database.db.selectFrom('emails').selectAll().where('toAddress', '=', plain.email).where('kind', '=', 'client-access').execute();
    expect(mail?.subject).toBe('You now have access to Harbour Cafe on Parley');

    const member = await invite(plain.email);
    expect(member.statusCode).toBe(409);
    expect(member.json().error.fields).toEqual({ email: 'This person already has access to this business' });
    const staff = await invite(manager.email);
    expect(staff.statusCode).toBe(409);
    expect(staff.json().error.message).toBe(`${manager.email} belongs to a staff account (manager), which sees every client already, so it cannot join Harbour Cafe`);
    expect(await app.services.users.findUserByEmail(manager.email)).toMatchObject({ role: 'manager', clientId: null });

    const other = await admin.client.post('/api/v1/clients', { companyName: 'Other Shop' });
    const otherId = other.json<{ id: string }>().id;
    expect((await invite(plain.email, otherId)).json().error.details).toEqual({ reason: 'other_client' });
    expect((await invite('x@example.com', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await invite('not-an-address')).json().error.fields).toEqual({ email: 'Please enter a valid email address' });
  });

  it('lets an address that got an account meanwhile join with it, once', async () => {
    const { email, token } = await invited();
    // The person signs up (and verifies) before opening the link.
    await app.services.users.createUser({ email, name: 'Late Larry', password: PASSWORD, role: 'client' });
    expect((await view(token)).json<PublicInvitationView>()).toMatchObject({ status: 'pending', account: 'existing' });
    const refused = await accept(token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details).toEqual({ reason: 'account_exists' });

    const joined = await join(token);
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject({ outcome: 'linked', email, clientName: 'Harbour Cafe' });
    expect(await app.services.users.findUserByEmail(email)).toMatchObject({ clientId, fullName: 'Late Larry' });
    expect((await join(token)).statusCode).toBe(410);
  });

  it('writes each invitation sent, resent, revoked and accepted to the security log, with who did it', async () => {
    const events = async (filter: string) =>
      (await app.database.db.selectFrom('securityEvents').select(['type', 'userId', 'email', 'details']).where('type', 'like', 'invitations.%').orderBy('createdAt').execute()).filter((event) =>
        JSON.stringify(event).includes(filter),
      );
    const { email, invitation } = await invited();
    const resent = await admin.client.post(`/api/v1/invitations/${invitation.id}/resend`);
    expect(resent.statusCode).toBe(200);
    const accepted = await accept(await latestToken(email));
    expect(accepted.statusCode).toBe(200);
    const user = await app.services.users.findUserByEmail(email);
    expect(await events(email)).toEqual([
      { type: 'invitations.sent', userId: admin.userId, email: admin.email, details: { invitationId: invitation.id, clientId, client: 'Harbour Cafe', resent: false, invited: email } },
      { type: 'invitations.sent', userId: admin.userId, email: admin.email, details: { invitationId: invitation.id, clientId, client: 'Harbour Cafe', resent: true, invited: email } },
      { type: 'invitations.accepted', userId: user!.id, email, details: { invitationId: invitation.id, clientId, client: 'Harbour Cafe', outcome: 'created' } },
    ]);

    const withdrawn = await invited();
    expect((await admin.client.post(`/api/v1/invitations/${withdrawn.invitation.id}/revoke`)).statusCode).toBe(200);
    // Revoking again changes nothing, so it logs nothing either.
    expect((await admin.client.post(`/api/v1/invitations/${withdrawn.invitation.id}/revoke`)).statusCode).toBe(200);
    expect((await events(withdrawn.email)).map((event) => event.type)).toEqual(['invitations.sent', 'invitations.revoked']);
    expect((await events(withdrawn.email))[1]).toMatchObject({ userId: admin.userId, details: { invitationId: withdrawn.invitation.id, invited: withdrawn.email } });

    // A plain account linked at once is an accepted invitation, added by the administrator.
    const plain = await signedInClient(app, 'client', { name: 'Pia Plain' });
    const linkedTo = await admin.client.post('/api/v1/clients', { companyName: 'Linked Lamps' });
    const linkedClient = linkedTo.json<{ id: string }>().id;
    expect((await invite(plain.email, linkedClient)).json<InvitationSent>().outcome).toBe('linked');
    expect(await events('Linked Lamps')).toEqual([
      { type: 'invitations.accepted', userId: plain.userId, email: plain.email, details: expect.objectContaining({ clientId: linkedClient, addedBy: admin.email, outcome: 'linked' }) },
    ]);
    // The Security tab's audit log lists them.
    const audit = await admin.client.get('/api/v1/admin/security/events?type=invitations.revoked');
    expect(audit.statusCode).toBe(200);
    expect(audit.json<{ events: { type: string; details: Record<string, unknown> }[] }>().events).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'invitations.revoked', details: expect.objectContaining({ invited: withdrawn.email }) })]),
    );
  });

  it('refuses invitations to a deactivated client, and their links while it is', async () => {
    const { token, invitation } = await invited();
    expect((await admin.client.patch(`/api/v1/clients/${clientId}`, { status: 'inactive' })).statusCode).toBe(200);
    try {
      expect((await invite(uniqueEmail('late'))).json().error.details).toEqual({ reason: 'client_inactive' });
      expect((await admin.client.post(`/api/v1/invitations/${invitation.id}/resend`)).statusCode).toBe(409);
      expect((await view(token)).json().status).toBe('revoked');
      expect((await accept(token)).json().error.details).toEqual({ reason: 'client_inactive' });
    } finally {
      expect((await admin.client.patch(`/api/v1/clients/${clientId}`, { status: 'active' })).statusCode).toBe(200);
    }
    expect((await view(token)).json().status).toBe('pending');
  });

  it('lets only administrators list, send, resend and revoke invitations', async () => {
    const { invitation } = await invited();
    const routes: { method: 'GET' | 'POST'; url: string; body?: unknown }[] = [
      { method: 'GET', url: `/api/v1/clients/${clientId}/invitations` },
      { method: 'POST', url: `/api/v1/clients/${clientId}/invitations`, body: { email: uniqueEmail('nope') } },
      { method: 'POST', url: `/api/v1/invitations/${invitation.id}/resend` },
      { method: 'POST', url: `/api/v1/invitations/${invitation.id}/revoke` },
    ];
    for (const route of routes) {
      expect((await app.client().request(route)).statusCode, `${route.method} ${route.url} anonymous`).toBe(401);
      expect((await clientUser.client.request(route)).statusCode, `${route.method} ${route.url} client`).toBe(403);
      expect((await manager.client.request(route)).statusCode, `${route.method} ${route.url} manager`).toBe(403);
    }
    const listed = await admin.client.get(`/api/v1/clients/${clientId}/invitations`);
    expect(listed.json<{ invitations: InvitationView[] }>().invitations.find((i) => i.id === invitation.id)?.status).toBe('pending');
  });
});
