// When an authorization request began, to the millisecond. The provider's
// interactions carry it in whole seconds (iat); prompt=login asks for a
// login after the request, and a reauthentication within the same second
// is one. The time joins the interaction's stored fields and is set when
// the interaction is first saved, as the request starts.

export const REQUESTED_AT_MS = 'x_requested_at_ms';

export function recordInteractionTime(provider: any, now: () => number): void {
  const Interaction = provider.Interaction;
  const fields = [...Interaction.IN_PAYLOAD, REQUESTED_AT_MS];
  Object.defineProperty(Interaction, 'IN_PAYLOAD', { get: () => fields });
  const save = Interaction.prototype.save;
  Interaction.prototype.save = function (this: Record<string, unknown>, ttl: number) {
    this[REQUESTED_AT_MS] ??= now();
    return save.call(this, ttl);
  };
}

/** Seconds, with the milliseconds: when the interaction's request began (iat for one saved before this field existed). */
export function requestedAt(interaction: Record<string, unknown> & { iat?: number }): number {
  const ms = interaction[REQUESTED_AT_MS];
  return typeof ms === 'number' ? ms / 1000 : (interaction.iat ?? 0);
}
