import { useState } from 'preact/hooks';
import { useStrings } from '../../core/i18n';
import { fiscalStrings } from './fiscal-strings';

export type FiscalCatalogs = {
  tax_regimes: { code: string; name: string; holder: 'person' | 'company' | 'both' }[];
  cfdi_uses: { code: string; name: string; regimes: string[] }[];
};

export type InvoiceRequest = {
  customer: { rfc: string; legal_name: string; tax_regime: string; postal_code: string; email?: string };
  use: string;
};

/**
 * The guest's fiscal data, as the SAT's Constancia de Situación Fiscal shows it: the regimes offered
 * are those of the RFC's kind (13 characters a person, 12 a company), the uses those the regime may
 * have; the server and the PAC check the rest. Shared by the till and the guest page.
 */
export function InvoiceForm({
  idPrefix,
  catalogs,
  busy,
  onSubmit,
}: {
  idPrefix: string;
  catalogs: FiscalCatalogs;
  busy: boolean;
  onSubmit: (request: InvoiceRequest) => void;
}) {
  const t = useStrings(fiscalStrings);
  const [rfc, setRfc] = useState('');
  const [legalName, setLegalName] = useState('');
  const [regime, setRegime] = useState('601');
  const [postalCode, setPostalCode] = useState('');
  const [use, setUse] = useState('G03');
  const [email, setEmail] = useState('');
  const holder = rfc.trim().length === 13 ? 'person' : 'company';
  const regimes = catalogs.tax_regimes.filter((item) => item.holder === 'both' || item.holder === holder);
  // A choice the RFC's kind or the regime no longer allows falls back to the first one offered.
  const chosenRegime = regimes.some((item) => item.code === regime) ? regime : (regimes[0]?.code ?? regime);
  const uses = catalogs.cfdi_uses.filter((item) => item.regimes.includes(chosenRegime));
  const chosenUse = uses.some((item) => item.code === use) ? use : (uses[0]?.code ?? use);
  const id = (name: string) => `${idPrefix}-${name}`;

  const submit = (event: Event) => {
    event.preventDefault();
    onSubmit({
      customer: {
        rfc: rfc.trim().toUpperCase(),
        legal_name: legalName.trim(),
        tax_regime: chosenRegime,
        postal_code: postalCode.trim(),
        ...(email.trim() !== '' && { email: email.trim() }),
      },
      use: chosenUse,
    });
  };

  return (
    <form class="stack invoice-form" aria-label={t.invoiceTitle} onSubmit={submit}>
      <div class="fields">
        <div class="field">
          <label for={id('rfc')}>{t.rfc}</label>
          <input
            id={id('rfc')}
            required
            minLength={12}
            maxLength={13}
            autoComplete="off"
            autoCapitalize="characters"
            value={rfc}
            onInput={(event) => setRfc(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for={id('zip')}>{t.postalCode}</label>
          <input
            id={id('zip')}
            required
            inputMode="numeric"
            pattern="\d{5}"
            maxLength={5}
            value={postalCode}
            onInput={(event) => setPostalCode(event.currentTarget.value)}
          />
        </div>
        <div class="field wide">
          <label for={id('name')}>{t.legalName}</label>
          <input
            id={id('name')}
            required
            aria-describedby={id('name-help')}
            value={legalName}
            onInput={(event) => setLegalName(event.currentTarget.value)}
          />
          <small id={id('name-help')} class="muted">
            {t.legalNameHelp}
          </small>
        </div>
        <div class="field wide">
          <label for={id('regime')}>{t.regime}</label>
          <select
            id={id('regime')}
            value={chosenRegime}
            onChange={(event) => setRegime(event.currentTarget.value)}
          >
            {regimes.map((item) => (
              <option key={item.code} value={item.code}>
                {item.code} · {item.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field wide">
          <label for={id('use')}>{t.use}</label>
          <select id={id('use')} value={chosenUse} onChange={(event) => setUse(event.currentTarget.value)}>
            {uses.map((item) => (
              <option key={item.code} value={item.code}>
                {item.code} · {item.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={id('email')}>{t.email}</label>
          <input
            id={id('email')}
            type="email"
            value={email}
            onInput={(event) => setEmail(event.currentTarget.value)}
          />
        </div>
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {t.submit}
        </button>
      </div>
    </form>
  );
}
