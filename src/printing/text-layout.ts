/**
 * Fixed-width text for thermal paper: every line at most `width` characters, words wrapped, words
 * longer than a line cut. Receipts and kitchen chits are both built from these.
 */

export const RECEIPT_WIDTHS = [32, 42, 48] as const;
export type ReceiptWidth = (typeof RECEIPT_WIDTHS)[number];

/** The text in lines of at most `width` characters, breaking between words where it can. */
export function wrap(text: string, width: number): string[] {
  if (width < 1) throw new RangeError('A line holds at least one character');
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    for (const piece of chunks(word, width)) {
      if (current === '') current = piece;
      else if (current.length + 1 + piece.length <= width) current = `${current} ${piece}`;
      else {
        lines.push(current);
        current = piece;
      }
    }
  }
  if (current !== '' || lines.length === 0) lines.push(current);
  return lines;
}

function chunks(word: string, width: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < word.length; start += width) pieces.push(word.slice(start, start + width));
  return pieces;
}

/** Each wrapped line centred; the odd space goes to the right, and trailing spaces are dropped. */
export function centered(text: string, width: number): string[] {
  return wrap(text, width).map((line) =>
    line === '' ? '' : ' '.repeat(Math.floor((width - line.length) / 2)) + line,
  );
}

/** `label` on the left and `value` flush right; a long label wraps and the value ends its last line. */
export function pair(label: string, value: string, width: number): string[] {
  const room = Math.max(width - value.length - 1, 1);
  const labelLines = wrap(label, room);
  const last = labelLines.pop() ?? '';
  return [...labelLines, last + ' '.repeat(Math.max(width - last.length - value.length, 1)) + value];
}

/** Lines made for `width - by` columns, moved right by `by` spaces: details under the line they explain. */
export function indented(lines: string[], by = 2): string[] {
  return lines.map((line) => ' '.repeat(by) + line);
}

export function rule(width: number): string {
  return '-'.repeat(width);
}
