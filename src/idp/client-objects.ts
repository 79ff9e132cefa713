// oidc-provider keeps one Client object per distinct client metadata, which
// it finds by a SHA-256 of the metadata's JSON on every lookup (once per
// token request). Our adapter answers the same frozen metadata object for as
// long as a client's row is unchanged (adapter.ts, findSharedIdpClient), so
// the Client made from that object is kept by the object itself: no JSON and
// no hash per request. A changed row is a new metadata object, hence a new
// Client from the request that reads the change.
//
// On a miss the provider's own lookup makes the Client, reading the adapter
// once more; should the row change between the two reads, the Client kept is
// the newer row's, under a metadata object that the adapter no longer answers.

export function oneClientPerMetadata(provider: any): void {
  const Client = provider.Client;
  const find = Client.find as (this: unknown, id: string) => Promise<unknown>;
  const byMetadata = new WeakMap<object, unknown>();
  Client.find = async function (this: { adapter: { find(id: string): Promise<object | undefined> } }, id: unknown) {
    if (typeof id !== 'string' || !id.length) return undefined;
    const metadata = await this.adapter.find(id);
    // The provider has no static clients, and client ID metadata documents are the adapter's (client-id-metadata.ts): nothing else to find.
    if (!metadata) return undefined;
    let client = byMetadata.get(metadata);
    if (!client) {
      client = await find.call(this, id);
      if (client) byMetadata.set(metadata, client);
    }
    return client;
  };
}
