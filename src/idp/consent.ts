// Consent, answered on the provider's own page or by the SPA's page over
// the browser API (flows/idp/consent.ts has both). The SPA cannot read the
// provider's interaction cookie (its path is the interaction's), so there
// the interaction is looked up by its uid and must belong to the logged-in
// user; the browser then follows `location` back to the provider with the
// cookie that binds the resume to it.

export interface ConsentView {
  uid: string;
  client: { id: string; name: string };
  scopes: string[];
}

export type ConsentLookup = { ok: true; interaction: any; view: ConsentView } | { ok: false; reason: 'not_found' };

/** The consent an interaction waits for, if it is the given user's. */
export async function pendingConsent(provider: any, uid: string, userId: number): Promise<ConsentLookup> {
  const interaction = /^[\w-]{1,64}$/.test(uid) ? await provider.Interaction.find(uid) : undefined;
  if (!interaction || interaction.prompt?.name !== 'consent' || interaction.session?.accountId !== String(userId)) return { ok: false, reason: 'not_found' };
  const client = await provider.Client.find(interaction.params.client_id);
  return {
    ok: true,
    interaction,
    view: {
      uid: interaction.uid,
      client: { id: String(interaction.params.client_id), name: client?.clientName ?? String(interaction.params.client_id) },
      scopes: scopesAsked(interaction),
    },
  };
}

export function scopesAsked(interaction: any): string[] {
  return interaction.prompt.details.missingOIDCScope ?? String(interaction.params.scope ?? '').split(' ').filter(Boolean);
}

/** The interaction's result when the user denies the request. */
export const CONSENT_DENIED = { error: 'access_denied', error_description: 'The user denied the request.' } as const;

/** Records the user's answer on the interaction; answers where the browser resumes. */
export async function saveConsentAnswer(provider: any, interaction: any, allow: boolean, nowSeconds: number): Promise<string> {
  const result = allow ? { consent: { grantId: await grantConsent(provider, interaction) } } : CONSENT_DENIED;
  interaction.result = { ...interaction.lastSubmission, ...result };
  await interaction.save(Math.max(1, interaction.exp - nowSeconds));
  return interaction.returnTo;
}

/** Grants what the consent prompt found missing, in the interaction's grant or a new one. */
export async function grantConsent(provider: any, interaction: any): Promise<string> {
  const { prompt, params, session, grantId } = interaction;
  const grant = grantId ? await provider.Grant.find(grantId) : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  const missing = prompt.details;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  if (missing.missingResourceScopes) for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes)) grant.addResourceScope(indicator, (scopes as string[]).join(' '));
  return grant.save();
}
