// Hot paths that usually answer from memory (a cached token, a session
// snapshot) return their value directly and a promise only when they must
// wait: every promise costs an allocation and a turn of the microtask queue,
// which on a request that does nothing else is a measurable share of it.

/** A value, or a promise of it. */
export type MaybePromise<T> = T | PromiseLike<T>;

export function isPromiseLike<T>(value: MaybePromise<T>): value is PromiseLike<T> {
  return typeof (value as PromiseLike<T> | null)?.then === 'function';
}

/** `next` applied to `value` now, or once it has resolved. */
export function andThen<T, R>(value: MaybePromise<T>, next: (resolved: T) => MaybePromise<R>): MaybePromise<R> {
  return isPromiseLike(value) ? value.then(next) : next(value);
}
