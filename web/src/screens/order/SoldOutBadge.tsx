import { useStrings } from '../../core/i18n';
import { strings } from './order-screen';

/**
 * Why a dish or option cannot be ordered: "Out of stock" when its recipe's stock ran out (it returns
 * by itself with the next delivery), 86 when the kitchen took it off. Nothing while it is on sale.
 */
export function SoldOutBadge({
  available,
  outOfStock,
  class: extra,
}: {
  available: boolean;
  outOfStock: boolean;
  class?: string;
}) {
  const t = useStrings(strings);
  if (outOfStock) return <span class={`badge warn out-of-stock ${extra ?? ''}`.trim()}>{t.outOfStock}</span>;
  if (!available) return <span class={`badge danger ${extra ?? ''}`.trim()}>{t.soldOut}</span>;
  return null;
}
