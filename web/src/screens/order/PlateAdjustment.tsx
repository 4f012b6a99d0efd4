import { useState } from 'preact/hooks';
import { ApiError, api, keyHeader, writeOnce } from '../../api/client';
import {
  type ApprovalInput,
  approvalHeaders,
  isApprovalComplete,
  ManagerApproval,
  NO_APPROVAL,
} from '../../components/ManagerApproval';
import { ModalDialog } from '../../components/ModalDialog';
import { format, type Strings, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { messageOf } from '../../core/server-text';
import { useCan } from '../../core/session';
import { cents, type OrderDish } from './order-screen';

/** Voiding a plate the kitchen has, or giving it away (a bill of that plate discounted 100 %). */
export type Adjustment = 'void' | 'comp';

type Keys =
  | 'voidTitle'
  | 'compTitle'
  | 'voidHint'
  | 'compHint'
  | 'reason'
  | 'voidAction'
  | 'compAction'
  | 'voided'
  | 'comped'
  | 'cancel'
  | 'unreachable';

const strings: Strings<Keys> = {
  en: {
    voidTitle: 'Void {dish}',
    compTitle: 'Comp {dish}',
    voidHint: 'Its price ({price}) leaves the order; the kitchen is told.',
    compHint: 'A bill of this plate discounted 100 % ({price}), paid at once.',
    reason: 'Reason',
    voidAction: 'Void',
    compAction: 'Comp',
    voided: '{dish} voided',
    comped: '{dish} comped',
    cancel: 'Cancel',
    unreachable: 'The server cannot be reached.',
  },
  es: {
    voidTitle: 'Anular {dish}',
    compTitle: 'Cortesía: {dish}',
    voidHint: 'Su precio ({price}) sale de la comanda; se avisa a la cocina.',
    compHint: 'Una cuenta de este platillo con 100 % de descuento ({price}), pagada al instante.',
    reason: 'Motivo',
    voidAction: 'Anular',
    compAction: 'Dar cortesía',
    voided: 'Se anuló {dish}',
    comped: 'Cortesía de {dish}',
    cancel: 'Cancelar',
    unreachable: 'No se puede contactar con el servidor.',
  },
};

const PERMISSION = { void: 'dishes.void', comp: 'tickets.discount' } as const;

/**
 * The dialog of a void or a comp: the reason, and a manager's name and PIN when the signed-in user's
 * role lacks the permission. A refusal (a wrong PIN) stays in the dialog, in the user's language.
 */
export function PlateAdjustment({
  orderId,
  plate,
  kind,
  onDone,
  onClose,
}: {
  orderId: string;
  plate: OrderDish;
  kind: Adjustment;
  onDone: (message: string) => void;
  onClose: () => void;
}) {
  const t = useStrings(strings);
  const money = useMoney();
  const needsApproval = !useCan(PERMISSION[kind]);
  const [reason, setReason] = useState('');
  const [approval, setApproval] = useState<ApprovalInput>(NO_APPROVAL);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const ready = reason.trim() !== '' && (!needsApproval || isApprovalComplete(approval));

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    setError(undefined);
    try {
      const headers = await approvalHeaders(PERMISSION[kind], needsApproval ? approval : undefined, {
        order_id: orderId,
        order_dish_ids: [plate.id],
      });
      const path = { id: orderId };
      await writeOnce((key) =>
        kind === 'void'
          ? api.POST('/orders/{id}/dishes/{dishId}/void', {
              params: { path: { ...path, dishId: plate.id } },
              body: { reason: reason.trim() },
              headers: { ...keyHeader(key), ...headers },
            })
          : api.POST('/orders/{id}/tickets', {
              params: { path, header: { 'idempotency-key': key } },
              body: {
                order_dish_ids: [plate.id],
                discount: { type: 'percent', value: 100, reason: reason.trim() },
              },
              headers,
            }),
      );
      onDone(format(kind === 'void' ? t.voided : t.comped, { dish: plate.dish_name }));
    } catch (failure) {
      setError(failure instanceof ApiError ? messageOf(failure, '') : t.unreachable);
      setApproval((typed) => ({ ...typed, pin: '' }));
    } finally {
      setBusy(false);
    }
  };

  const price = money(cents(plate.price_at_order));
  return (
    <ModalDialog
      title={format(kind === 'void' ? t.voidTitle : t.compTitle, { dish: plate.dish_name })}
      onClose={onClose}
    >
      <form class="stack" onSubmit={(event) => void submit(event)}>
        <p class="muted">{format(kind === 'void' ? t.voidHint : t.compHint, { price })}</p>
        <label for="adjustment-reason">{t.reason}</label>
        <input
          id="adjustment-reason"
          type="text"
          maxLength={200}
          autoComplete="off"
          value={reason}
          onInput={(event) => setReason(event.currentTarget.value)}
        />
        {needsApproval && (
          <ManagerApproval id="adjustment-approval" input={approval} onChange={setApproval} />
        )}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <div class="actions plate-actions">
          <button type="button" onClick={onClose}>
            {t.cancel}
          </button>
          <button type="submit" class={kind === 'void' ? 'danger' : 'primary'} disabled={!ready || busy}>
            {kind === 'void' ? t.voidAction : t.compAction}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
