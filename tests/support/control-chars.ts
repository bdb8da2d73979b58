/** The control characters in `s` that no export may write: C0 but tab, LF and CR; DEL; C1 (8-bit CSI, OSC…). */
export const controlChars = (s: string): string[] =>
  [...s].filter((ch) => {
    const c = ch.charCodeAt(0);
    return (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0x7f && c <= 0x9f);
  });
