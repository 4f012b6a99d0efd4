/**
 * The form a user name is looked up, compared and rate limited by: surrounding whitespace dropped,
 * compatibility characters unified (NFKC: full-width letters, ligatures, odd spaces) and case folded.
 * Login, uniqueness and the login throttle all use this one function, so a name that reaches an
 * account always lands in that account's throttle bucket. Upper-casing before lower-casing folds
 * letters such as `ß` (to `ss`) the way Unicode case folding does, which `toLowerCase` alone does not.
 */
export function userNameKey(name: string): string {
  return name.normalize('NFKC').trim().toUpperCase().toLowerCase().normalize('NFKC');
}
