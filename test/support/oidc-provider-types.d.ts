// oidc-provider ships no type declarations; the tests use a handful of its calls.
declare module 'oidc-provider' {
  const Provider: any;
  export default Provider;
}
