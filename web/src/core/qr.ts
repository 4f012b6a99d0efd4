import { generate } from 'lean-qr';
import { toSvgDataURL } from 'lean-qr/extras/svg';

/**
 * A QR code as an SVG data URL, for an <img>. A Lightning invoice is read case-insensitively and its
 * upper case fits the QR's denser alphanumeric mode, so a phone's camera reads it at a glance.
 */
export function qrCodeDataUrl(text: string): string {
  return toSvgDataURL(generate(text));
}

export function lightningQrDataUrl(bolt11: string): string {
  return qrCodeDataUrl(bolt11.toUpperCase());
}
