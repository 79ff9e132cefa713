// Plain data shared by flows and the store: what a session remembers.

/** Entries of `data.methods`; `at` is Unix time in (fractional) seconds. */
export type AuthMethod =
  | { method: 'password'; at: number; email?: string; username?: string }
  | { method: 'password'; at: number; reauthenticated: true }
  | { method: 'code'; at: number; email?: string; phone?: string }
  | { method: 'password_reset'; at: number; email?: string };

/** Verification of an email address, by link or by code. */
export interface VerifyEmailFlow {
  id: 'verify_email';
  /** Null when enumeration prevention answers for an address it must not reveal. */
  userId: number | null;
  emailAddressId: number | null;
  email: string;
  /** SHA-256 of the code when verification is by code. */
  codeHash: string | null;
  /** Milliseconds; the code (not the flow) stops working then. */
  codeExpiresAt: number | null;
  /** The login that completes once the address is verified, if any. */
  login: AuthMethod | null;
}

export type PendingFlow = VerifyEmailFlow;
export type PendingFlowId = PendingFlow['id'];

export interface Session {
  id: number;
  userId: number | null;
  methods: AuthMethod[];
  flow: PendingFlow | null;
  flowAttempts: number;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  ip: string;
  userAgent: string;
}
