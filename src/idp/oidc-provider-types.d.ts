// oidc-provider ships no type declarations; the server (src/idp/) and the
// social login tests' provider use a handful of its calls.
declare module 'oidc-provider' {
  const Provider: any;
  export default Provider;
  export const interactionPolicy: any;
  export const errors: any;
}
declare module 'oidc-provider/lib/helpers/weak_cache.js' {
  const read: (provider: unknown) => unknown;
  export default read;
}
