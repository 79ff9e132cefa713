export type { MailContent } from './render.js';
export { emailVerificationMail, type EmailVerificationMailInput } from './email-verification.js';
export { accountAlreadyExistsMail } from './account-already-exists.js';
export { passwordResetMail, type PasswordResetMailInput } from './password-reset.js';
export { unknownAccountMail } from './unknown-account.js';
export { loginCodeMail } from './login-code.js';
export { passwordChangedMail } from './password-changed.js';
