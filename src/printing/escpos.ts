import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';

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
  const encoder = new ReceiptPrinterEncoder({ language: 'esc-pos', columns: width, newline: '\n' });
  // The default code page (437) has no Ó: REIMPRESIÓN would print as REIMPRESI?N. Auto switches,
  // per stretch of text, to a code page the printer has that holds the letter.
  encoder.initialize().codepage('auto');
  lines.forEach((line, index) => {
    if (qr && index === qr.beforeLine) encoder.align('center').qrcode(qr.value, 2, 6, 'm').align('left');
    encoder.line(line);
  });
  return encoder.cut().encode();
}
