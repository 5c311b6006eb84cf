// Altered forms of signed tokens, for the tests that prove only the issued text verifies
// (docs/security.md: signed download links).
/**
 * Other spellings of a base64url signature that a lenient decoder reads as the same bytes: its last
 * character with other unused bits, stray characters inserted, padding, the standard alphabet.
 */
export function respelledSignatures(sig: string): string[] {
  const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const last = ALPHABET.indexOf(sig.at(-1)!);
  // 32 bytes are 43 characters: the last carries 4 bits and 2 unused ones.
  const unusedBits = [1, 2, 3].map((b) => sig.slice(0, -1) + ALPHABET[last ^ b]);
  return [
    ...unusedBits,
    `${sig.slice(0, 5)}*${sig.slice(5)}`,
    `${sig}*`,
    `${sig.slice(0, 10)} ${sig.slice(10)}`,
    `${sig}=`,
    `${sig}\n`,
    `${sig.slice(0, 20)}!${sig.slice(20)}`,
  ];
}
