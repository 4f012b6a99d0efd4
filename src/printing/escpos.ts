import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';

/**
 * Lines of text as ESC/POS bytes: reset the printer, print each line (the library picks the code page
 * for accented letters), feed and cut. The same lines as the text receipt, so what the cashier previews
 * is what the paper shows.
 */
export function escposOf(lines: string[], width: number): Uint8Array {
  const encoder = new ReceiptPrinterEncoder({ language: 'esc-pos', columns: width, newline: '\n' });
  // The default code page (437) has no Ó: REIMPRESIÓN would print as REIMPRESI?N. Auto switches,
  // per stretch of text, to a code page the printer has that holds the letter.
  encoder.initialize().codepage('auto');
  for (const line of lines) encoder.line(line);
  return encoder.cut().encode();
}
