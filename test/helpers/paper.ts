/** Where PC437 and PC850 agree: the lower-case accents, ñ, É and the Spanish marks. */
const SPANISH_IN_BOTH: Record<number, string> = {
  129: 'ü',
  130: 'é',
  144: 'É',
  160: 'á',
  161: 'í',
  162: 'ó',
  163: 'ú',
  164: 'ñ',
  165: 'Ñ',
  168: '¿',
  173: '¡',
};
const CODE_PAGES: Record<number, Record<number, string>> = {
  0: SPANISH_IN_BOTH,
  // PC850 also has the capitals with an acute accent.
  2: { ...SPANISH_IN_BOTH, 181: 'Á', 214: 'Í', 224: 'Ó', 233: 'Ú' },
};

const ESC = 0x1b;
const FS = 0x1c;
const GS = 0x1d;

/**
 * What a thermal printer prints from our ESC/POS jobs, as text: the commands our encoder sends (reset,
 * code page, cut) are dropped and each byte above 0x7F is read in the code page last selected. Only
 * the letters of Spanish are mapped; any other byte shows as "?", so a wrong page does not pass unseen.
 */
export function paperText(job: Buffer): string {
  let page = 0;
  let text = '';
  for (let at = 0; at < job.length; at++) {
    const byte = job[at] as number;
    if (byte === ESC) {
      const command = job[at + 1];
      if (command === 0x74) page = job[at + 2] as number;
      // ESC @ (reset) is two bytes; ESC t n and the other one-argument commands three.
      at += command === 0x40 ? 1 : 2;
    } else if (byte === FS) {
      // FS . (leave the Kanji mode) is two bytes.
      at += 1;
    } else if (byte === GS) {
      // GS V m [n]: the cut ends the job.
      break;
    } else if (byte === 0x0a || (byte >= 0x20 && byte < 0x7f)) {
      text += String.fromCharCode(byte);
    } else if (byte > 0x7f) {
      text += CODE_PAGES[page]?.[byte] ?? '?';
    }
  }
  return text.replace(/\n+$/, '\n');
}

/** A page that shows printed paper: white, 58/80 mm wide monospace, for a screenshot of a ticket. */
export function paperPage(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!doctype html><meta charset="utf-8"><body style="margin:0;background:#ddd"><pre style="display:inline-block;margin:16px;padding:16px;background:#fff;font:15px/1.3 monospace;box-shadow:0 1px 4px #0004">${escaped}</pre></body>`;
}
