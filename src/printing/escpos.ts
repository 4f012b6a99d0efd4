import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';

/** Blank lines fed between the last printed line and the cut. */
export const FEED_BEFORE_CUT = 4;

/**
 * Lines of text as ESC/POS bytes: reset the printer, print each line (the library picks the code page
 * for accented letters), feed and cut. The same lines as the text receipt, so what the cashier previews
 * is what the paper shows; a guest page's QR code goes above its address.
 */
export function escposOf(
  lines: string[],
  width: number,
  qr: { value: string; beforeLine: number } | null = null,
): Uint8Array {
  // GS V cuts at the blade, a few lines above the print head: without feeding first, the last lines
  // (the footer of a receipt, the last dishes of a chit) are cut through. Four lines is the distance
  // the encoder's own table of printers gives most models (three for the rest), so it clears them all.
  const encoder = new ReceiptPrinterEncoder({
    language: 'esc-pos',
    columns: width,
    newline: '\n',
    feedBeforeCut: FEED_BEFORE_CUT,
  });
  // The default code page (437) has no Ó: REIMPRESIÓN would print as REIMPRESI?N. Auto switches,
  // per stretch of text, to a code page the printer has that holds the letter.
  encoder.initialize().codepage('auto');
  lines.forEach((line, index) => {
    if (qr && index === qr.beforeLine) encoder.align('center').qrcode(qr.value, 2, 6, 'm').align('left');
    encoder.line(line);
  });
  return encoder.cut().encode();
}
