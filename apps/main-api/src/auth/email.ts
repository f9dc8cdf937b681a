/**
 * An e-mail address as the service stores and compares it: trimmed, its ASCII letters lower-cased,
 * nothing else changed. Unicode case folding (String#toLowerCase, PostgreSQL's lower() under most
 * locales) turns U+212A KELVIN SIGN into "k", so a token for "\u212Aate@x" would stand for "kate@x".
 */
export function normalizeEmail(email: string): string {
  return email.trim().replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}
