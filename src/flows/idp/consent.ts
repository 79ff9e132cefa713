import { Type, type Static } from 'typebox';
import type { Deps, RequestContext } from '../context.js';
import { notAuthenticated, notFound, type Outcome } from '../outcome.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import { CONSENT_DENIED, grantConsent, pendingConsent, saveConsentAnswer } from '../../idp/consent.js';

// A user's consent to what a client of the OpenID provider asks, recorded
// as idp.consent_granted or idp.consent_denied: answered on the provider's
// own page (the interaction comes from its cookie), or by a SPA with a
// consent page of its own over the browser API (the interaction comes from
// its uid, and must wait on the logged-in user).

export const ConsentAnswer = Type.Object({ action: Type.Union([Type.Literal('allow'), Type.Literal('deny')]) });
export type ConsentAnswer = Static<typeof ConsentAnswer>;

/** The client and scopes waiting under `uid` on the logged-in user. */
export async function readConsent(ctx: RequestContext, provider: any, uid: string): Promise<Outcome> {
  if (!ctx.user) return notAuthenticated;
  const found = await pendingConsent(provider, uid, ctx.user.id);
  return found.ok ? { kind: 'idp_consent', consent: found.view } : notFound;
}

/** The SPA's answer: saved on the interaction; the browser resumes at `location`. */
export async function answerConsent(deps: Deps, ctx: RequestContext, provider: any, uid: string, answer: ConsentAnswer): Promise<Outcome> {
  const user = ctx.user;
  if (!user) return notAuthenticated;
  const found = await pendingConsent(provider, uid, user.id);
  if (!found.ok) return notFound;
  const allow = answer.action === 'allow';
  const location = await saveConsentAnswer(provider, found.interaction, allow, Math.floor(ctx.now / 1000));
  const client = { client_id: found.view.client.id };
  await recordEvent(deps, deps.db, ctx, allow ? 'idp.consent_granted' : 'idp.consent_denied', { userId: user.id, detail: allow ? { ...client, scopes: found.view.scopes } : client });
  return { kind: 'idp_consent_answered', location };
}

/** The answer on the provider's own page: the result to finish its interaction with. */
export async function answerConsentPage(deps: Deps, source: AuditSource, provider: any, interaction: any, allow: boolean): Promise<object> {
  const userId = Number(interaction.session?.accountId);
  const detail = { client_id: String(interaction.params.client_id) };
  if (!allow) {
    await recordEvent(deps, deps.db, source, 'idp.consent_denied', { userId, detail });
    return { ...CONSENT_DENIED };
  }
  const grantId = await grantConsent(provider, interaction);
  await recordEvent(deps, deps.db, source, 'idp.consent_granted', { userId, detail: { ...detail, scopes: interaction.prompt.details.missingOIDCScope ?? [] } });
  return { consent: { grantId } };
}
