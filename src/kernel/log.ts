/** What a part needs of a logger: pino's shape, narrowed so that any part can take one without pino. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
